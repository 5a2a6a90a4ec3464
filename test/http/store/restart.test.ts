import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { INTERRUPTED_BY_CRASH } from '../../../src/detached/interruptedByCrash.js';
import { sseEvents, type SseEvent } from '../../support/sseEvents.js';
import { startCli, type CliProcess } from '../../support/startCli.js';

const started: CliProcess[] = [];
let dataDir: string | undefined;
afterEach(async () => {
  for (const cli of started.splice(0)) {
    if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
    await cli.exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<CliProcess> {
  const cli = await startCli({ RXGATE_DATA_DIR: dataDir! });
  started.push(cli);
  return cli;
}

async function runEvents(url: string, runId: string, until: (type: string) => boolean) {
  const response = await fetch(`${url}/v1/runs/${runId}/events`);
  const types: string[] = [];
  for await (const event of sseEvents(response.body!)) {
    types.push(event.event!);
    if (until(event.event!)) break;
  }
  return types;
}

async function createRun(url: string, input: string): Promise<string> {
  const response = await fetch(`${url}/v1/runs`, { method: 'POST', body: JSON.stringify({ input }) });
  return ((await response.json()) as { run_id: string }).run_id;
}

describe('the store across restarts of the packaged server', () => {
  it('still serves stored responses and finished runs, and marks runs cut off by a crash as failed', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rxgate-store-'));
    const first = await start();
    const client = new OpenAI({ baseURL: `${first.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const stored = await client.responses.create({ input: 'What is 2+3?' });
    const finished = await createRun(first.url, 'hello');
    await runEvents(first.url, finished, (type) => type === 'run.completed');
    const crashed = await createRun(first.url, 'Tell me a long story');
    await runEvents(first.url, crashed, (type) => type === 'message.delta');
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await start();
    const again = new OpenAI({ baseURL: `${second.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    expect(await again.responses.retrieve(stored.id)).toEqual(stored);
    expect(await (await fetch(`${second.url}/v1/runs/${finished}`)).json()).toMatchObject({ status: 'completed' });
    expect(await (await fetch(`${second.url}/v1/runs/${crashed}`)).json()).toMatchObject({
      status: 'failed',
      error: { message: `rxgate: ${INTERRUPTED_BY_CRASH}`, code: 'interrupted' },
    });
    expect((await runEvents(second.url, crashed, () => false)).at(-1)).toBe('run.failed');
    const chained = await again.responses.create({ input: 'And 3+4?', previous_response_id: stored.id });
    expect(chained.status).toBe('completed');
    expect((await fetch(`${second.url}/health/ready`)).status).toBe(200);

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('loses no event a follower saw when killed mid-run: the log resumes after it, ends in run.failed, and the output is rebuilt', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rxgate-store-'));
    const first = await start();
    const runId = await createRun(first.url, 'Tell me a long story');
    const seen: SseEvent[] = [];
    for await (const event of sseEvents((await fetch(`${first.url}/v1/runs/${runId}/events`)).body!)) {
      seen.push(event);
      if (seen.length === 6) break;
    }
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await start();
    const stored: SseEvent[] = [];
    for await (const event of sseEvents((await fetch(`${second.url}/v1/runs/${runId}/events`)).body!)) stored.push(event);
    // Everything the follower saw was stored as it saw it; the terminal event comes after, at a new id.
    expect(stored.slice(0, seen.length)).toEqual(seen);
    const failed = stored.at(-1)!;
    expect(failed.event).toBe('run.failed');
    expect(Number(failed.id)).toBeGreaterThan(Number(seen.at(-1)!.id));

    const resumed: SseEvent[] = [];
    const lastSeen = seen.at(-1)!.id!;
    for await (const event of sseEvents(
      (await fetch(`${second.url}/v1/runs/${runId}/events`, { headers: { 'Last-Event-ID': lastSeen } })).body!,
    ))
      resumed.push(event);
    expect(resumed).toEqual(stored.slice(seen.length));
    // A cursor past the end of the log still learns how the run ended.
    const pastEnd: SseEvent[] = [];
    for await (const event of sseEvents(
      (await fetch(`${second.url}/v1/runs/${runId}/events`, { headers: { 'Last-Event-ID': '1000000' } })).body!,
    ))
      pastEnd.push(event);
    expect(pastEnd).toEqual([failed]);

    const deltas = stored
      .filter((event) => event.event === 'message.delta')
      .map((event) => (JSON.parse(event.data) as { delta: string }).delta);
    expect(deltas.length).toBeGreaterThan(0);
    expect(await (await fetch(`${second.url}/v1/runs/${runId}`)).json()).toMatchObject({ status: 'failed', output: deltas.join('') });
  });

  it('rebuilds a background response cut off by a crash from its log: the text it had streamed, the item incomplete', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rxgate-store-'));
    const first = await start();
    const created = await fetch(`${first.url}/v1/responses`, {
      method: 'POST',
      body: JSON.stringify({ input: 'Tell me a long story', background: true }),
    });
    const { id } = (await created.json()) as { id: string };
    let text = '';
    let deltas = 0;
    for await (const event of sseEvents((await fetch(`${first.url}/v1/responses/${id}?stream=true`)).body!)) {
      if (event.event !== 'response.output_text.delta') continue;
      text += (JSON.parse(event.data) as { delta: string }).delta;
      if (++deltas === 4) break;
    }
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await start();
    const response = (await (await fetch(`${second.url}/v1/responses/${id}`)).json()) as {
      status: string;
      output: { type: string; status: string; content: { text: string }[] }[];
    };
    expect(response.status).toBe('failed');
    expect(response.output).toHaveLength(1);
    expect(response.output[0]).toMatchObject({ type: 'message', status: 'incomplete' });
    expect(response.output[0]!.content[0]!.text.startsWith(text)).toBe(true);
  });

  it('refuses to start a second server on a data directory in use, naming the directory and the holder', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rxgate-store-'));
    const first = await start();
    const refused = await start().then(
      () => undefined,
      (error: unknown) => (error as Error).message,
    );
    expect(refused).toContain(`the data directory ${dataDir} is in use by another rxgate process (pid ${first.child.pid}`);
    expect((await fetch(`${first.url}/health/ready`)).status).toBe(200);
  });
});

async function startWithClient(): Promise<CliProcess & { client: OpenAI }> {
  const cli = await start();
  return { ...cli, client: new OpenAI({ baseURL: `${cli.url}/v1`, apiKey: 'unused', maxRetries: 0 }) };
}

describe('a conversation across a SIGKILL of the packaged server (SQLite)', () => {
  it('is left as it was by a response cut off mid-answer, and the restarted server continues it at once', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rxgate-conversation-'));
    const first = await startWithClient();
    const conversation = await first.client.conversations.create({ items: [{ type: 'message', role: 'user', content: 'I am Ann' }] });
    const before = await first.client.conversations.items.list(conversation.id);
    const stream = await first.client.responses.create({ conversation: conversation.id, input: 'Tell me a long story', stream: true });
    for await (const event of stream) if (event.type === 'response.output_text.delta') break;
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startWithClient();
    expect((await second.client.conversations.items.list(conversation.id)).data).toEqual(before.data);
    const next = await second.client.responses.create({ conversation: conversation.id, input: 'What is 2+3?' });
    expect(next.status).toBe('completed');
    const after = await second.client.conversations.items.list(conversation.id, { order: 'asc' });
    expect(after.data.slice(0, 2)).toEqual([before.data[0], expect.objectContaining({ type: 'message', role: 'user' })]);
    expect(after.data.at(-1)).toEqual(next.output.at(-1));
  });
});
