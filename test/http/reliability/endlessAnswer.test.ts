import { afterEach, describe, expect, it } from 'vitest';
import { createLlmAgent } from '../../../src/agent/llm/createLlmAgent.js';
import { dataFrames } from '../../support/readSse.js';
import { sseEvents } from '../../support/sseEvents.js';
import { createScriptedUpstream, endlessAnswer, type ScriptedUpstream } from '../../support/scriptedUpstream.js';
import { startApp, type TestApp } from '../../support/startApp.js';
import { watchedLogger } from '../../support/watchedLogger.js';

// An upstream that never stops, behind a client that reads: every API ends the answer at
// RXGATE_MAX_OUTPUT_CHARS and closes the upstream request, instead of growing it until the
// process runs out of memory (or the answer out of V8's string length).

const CAP = 20_000;
const DELTA = 'abcdefghij';

let upstream: ScriptedUpstream | undefined;
let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  await upstream?.close();
  app = upstream = undefined;
});

async function start({ reasoning = false } = {}) {
  upstream = await createScriptedUpstream([endlessAnswer(DELTA, { reasoning })]);
  const log = watchedLogger();
  const agent = createLlmAgent({ baseUrl: upstream.baseUrl, model: 'up-model', tools: [], logger: log.logger });
  app = await startApp(agent, { maxOutputChars: CAP }, { logger: log.logger });
  return { upstream, app, log };
}

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const MESSAGES = [{ role: 'user', content: 'never stop' }];

/** The upstream request was aborted: its socket closed before the (endless) answer was written. */
async function expectUpstreamClosed(upstream: ScriptedUpstream): Promise<void> {
  const closed = await upstream.requests[0]!.closed;
  expect(closed.finished).toBe(false);
}

describe('an upstream that never stops', () => {
  it('streaming chat: the answer ends at the cap with finish_reason length and [DONE], and the upstream request is aborted', async () => {
    const { upstream, app, log } = await start();
    const response = await post(`${app.url}/v1/chat/completions`, { stream: true, messages: MESSAGES });
    const frames = dataFrames(await response.text()) as (
      { choices: { delta: { content?: string }; finish_reason: string | null }[] } | string
    )[];

    expect(frames.at(-1)).toBe('[DONE]');
    const chunks = frames.slice(0, -1) as Exclude<(typeof frames)[number], string>[];
    expect(chunks.map((chunk) => chunk.choices[0]!.delta.content ?? '').join('')).toHaveLength(CAP);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('length');
    await expectUpstreamClosed(upstream);
    expect(await log.next((line) => line.msg === 'llm run interrupted')).toMatchObject({ reason: 'Output limit reached' });
    expect(await log.next((line) => line.msg === 'request')).toMatchObject({ status: 200, outcome: 'completed' });
  });

  it('non-streaming chat: the answer is cut at the cap with finish_reason length', async () => {
    const { upstream, app } = await start();
    const response = await post(`${app.url}/v1/chat/completions`, { messages: MESSAGES });
    const completion = (await response.json()) as { choices: { message: { content: string }; finish_reason: string }[] };

    expect(response.status).toBe(200);
    expect(completion.choices[0]!.message.content).toHaveLength(CAP);
    expect(completion.choices[0]!.finish_reason).toBe('length');
    await expectUpstreamClosed(upstream);
  });

  it('non-streaming chat, endless reasoning: reasoning counts toward the cap too', async () => {
    const { upstream, app } = await start({ reasoning: true });
    const response = await post(`${app.url}/v1/chat/completions`, { messages: MESSAGES });
    const completion = (await response.json()) as { choices: { message: { reasoning_content: string }; finish_reason: string }[] };

    expect(completion.choices[0]!.message.reasoning_content).toHaveLength(CAP);
    expect(completion.choices[0]!.finish_reason).toBe('length');
    await expectUpstreamClosed(upstream);
  });

  it('streaming responses: response.incomplete with reason max_output_tokens, stored so', async () => {
    const { upstream, app } = await start();
    const response = await post(`${app.url}/v1/responses`, { stream: true, input: 'never stop' });
    let text = '';
    let last: { type: string; response?: { id: string; status: string; incomplete_details: unknown } } | undefined;
    for await (const event of sseEvents(response.body!)) {
      last = JSON.parse(event.data) as typeof last;
      if (last!.type === 'response.output_text.delta') text += (last as unknown as { delta: string }).delta;
    }

    expect(last).toMatchObject({
      type: 'response.incomplete',
      response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
    });
    expect(text).toHaveLength(CAP);
    await expectUpstreamClosed(upstream);
    const stored = (await (await fetch(`${app.url}/v1/responses/${last!.response!.id}`)).json()) as { status: string; output: unknown[] };
    expect(stored).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
  });

  it('non-streaming responses: status incomplete with reason max_output_tokens', async () => {
    const { upstream, app } = await start();
    const response = await post(`${app.url}/v1/responses`, { input: 'never stop' });
    const body = (await response.json()) as { status: string; incomplete_details: unknown; output: { content: { text: string }[] }[] };

    expect(response.status).toBe(200);
    expect(body).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    expect(body.output[0]!.content[0]!.text).toHaveLength(CAP);
    await expectUpstreamClosed(upstream);
  });

  it('runs: the run completes with the output up to the cap', async () => {
    const { upstream, app } = await start();
    const created = await post(`${app.url}/v1/runs`, { input: 'never stop' });
    const { run_id: id } = (await created.json()) as { run_id: string };
    const events = await fetch(`${app.url}/v1/runs/${id}/events`);
    const types: string[] = [];
    for await (const event of sseEvents(events.body!)) {
      types.push(event.event!);
      if (event.event === 'run.completed' || event.event === 'run.failed') break;
    }
    const run = (await (await fetch(`${app.url}/v1/runs/${id}`)).json()) as { status: string; output: string };

    expect(types.at(-1)).toBe('run.completed');
    expect(run.status).toBe('completed');
    expect(run.output).toHaveLength(CAP);
    await expectUpstreamClosed(upstream);
  });
});
