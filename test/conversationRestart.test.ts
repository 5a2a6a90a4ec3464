import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startCli, type CliProcess } from './support/startCli.js';

const started: CliProcess[] = [];
let dataDir: string | undefined;
afterEach(async () => {
  for (const cli of started.splice(0)) {
    if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
    await cli.exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<{ cli: CliProcess; client: OpenAI }> {
  const cli = await startCli({ RXGATE_DATA_DIR: dataDir! });
  started.push(cli);
  return { cli, client: new OpenAI({ baseURL: `${cli.url}/v1`, apiKey: 'unused', maxRetries: 0 }) };
}

describe('a conversation across a SIGKILL of the packaged server (SQLite)', () => {
  it('is left as it was by a response cut off mid-answer, and the restarted server continues it at once', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rxgate-conversation-'));
    const first = await start();
    const conversation = await first.client.conversations.create({ items: [{ type: 'message', role: 'user', content: 'I am Ann' }] });
    const before = await first.client.conversations.items.list(conversation.id);
    const stream = await first.client.responses.create({ conversation: conversation.id, input: 'Tell me a long story', stream: true });
    for await (const event of stream) if (event.type === 'response.output_text.delta') break;
    first.cli.child.kill('SIGKILL');
    await first.cli.exited;

    const second = await start();
    expect((await second.client.conversations.items.list(conversation.id)).data).toEqual(before.data);
    const next = await second.client.responses.create({ conversation: conversation.id, input: 'What is 2+3?' });
    expect(next.status).toBe('completed');
    const after = await second.client.conversations.items.list(conversation.id, { order: 'asc' });
    expect(after.data.slice(0, 2)).toEqual([before.data[0], expect.objectContaining({ type: 'message', role: 'user' })]);
    expect(after.data.at(-1)).toEqual(next.output.at(-1));
  });
});
