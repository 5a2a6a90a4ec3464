import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { INTERRUPTED_BY_CRASH } from '../src/detached/interruptedByCrash.js';
import { sseEvents } from './support/sseEvents.js';
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
});
