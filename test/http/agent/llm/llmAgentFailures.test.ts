import { tap } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { Cancellation } from '../../../../src/agent/cancellation.js';
import { createLlmAgent, type LlmAgentOptions } from '../../../../src/agent/llm/createLlmAgent.js';
import { toOpenAIError } from '../../../../src/errors/toOpenAIError.js';
import { UpstreamError } from '../../../../src/errors/UpstreamError.js';
import { captureLogger } from '../../../support/captureLogger.js';
import { collectRun } from '../../../support/collectRun.js';
import {
  createScriptedUpstream,
  frames,
  unusedBaseUrl,
  type ScriptedUpstream,
  type UpstreamScript,
} from '../../../support/scriptedUpstream.js';

const API_KEY = 'sk-test-secret-key-1234';
const QUESTION = { model: 'rxgate-agent', messages: [{ role: 'user' as const, content: 'hello' }] };

let upstream: ScriptedUpstream | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

async function failureOf(script: UpstreamScript, options: Partial<LlmAgentOptions> = {}, onEvent: () => void = () => undefined) {
  upstream = await createScriptedUpstream([script]);
  const log = captureLogger();
  const agent = createLlmAgent({ baseUrl: upstream.baseUrl, apiKey: API_KEY, model: 'up-model', logger: log.logger, ...options });
  const { events, error } = await collectRun(agent.run(QUESTION, new Cancellation()).pipe(tap(onEvent)));
  expect(error).toBeInstanceOf(UpstreamError);
  const failure = error as UpstreamError;
  expect(failure.message).not.toContain(API_KEY);
  expect(log.text()).not.toContain(API_KEY);
  return { failure, events, upstream };
}

describe('upstream failures become UpstreamErrors', () => {
  it('connection refused: unreachable, 502', async () => {
    const agent = createLlmAgent({ baseUrl: await unusedBaseUrl(), apiKey: API_KEY, model: 'up-model' });
    const { error } = await collectRun(agent.run(QUESTION, new Cancellation()));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ kind: 'unreachable', message: expect.stringContaining('ECONNREFUSED') });
    expect(toOpenAIError(error).status).toBe(502);
  });

  it('reset before headers: dropped', async () => {
    const { failure } = await failureOf({ resetBeforeHeaders: true });
    expect(failure).toMatchObject({ kind: 'dropped', message: expect.stringContaining('closed the connection before answering') });
  });

  it('reset mid-stream: dropped, after the deltas that did arrive', async () => {
    let received!: () => void;
    const delivered = new Promise<void>((resolve) => (received = resolve));
    // The reset waits until the delta was read, so the test is about the reset, not a race with it.
    const { failure, events } = await failureOf({ steps: [frames.text('partial'), { waitFor: delivered }, { reset: true }] }, {}, () =>
      received(),
    );
    expect(events).toEqual([{ type: 'text', delta: 'partial' }]);
    expect(failure).toMatchObject({ kind: 'dropped', status: 200, message: expect.stringContaining('in the middle of the stream') });
  });

  it('body ends without [DONE] or finish_reason: dropped', async () => {
    const { failure } = await failureOf({ steps: [frames.text('partial')] });
    expect(failure).toMatchObject({ kind: 'dropped', message: expect.stringContaining('no finish_reason and no [DONE]') });
  });

  it('a frame that is not JSON: malformed_frame', async () => {
    const { failure } = await failureOf({ steps: [frames.text('ok'), { data: '{"choices": [' }, { stall: true }] });
    expect(failure).toMatchObject({ kind: 'malformed_frame', message: expect.stringContaining('not JSON: {"choices": [') });
    expect(await upstream!.requests[0]!.closed).toMatchObject({ finished: false });
  });

  it('a body that is not text/event-stream: not_sse', async () => {
    const { failure } = await failureOf({ headers: { 'content-type': 'application/json' }, steps: [{ raw: '{"choices":[]}' }] });
    expect(failure).toMatchObject({ kind: 'not_sse', status: 200, message: expect.stringContaining('"application/json"') });
  });

  it('an {"error": ...} frame mid-stream: upstream_error with its message, key redacted', async () => {
    const { failure, events } = await failureOf({
      steps: [
        frames.text('a'),
        { chunk: { error: { message: `overloaded while serving ${API_KEY}`, type: 'server_error' } } },
        { stall: true },
      ],
    });
    expect(events).toEqual([{ type: 'text', delta: 'a' }]);
    expect(failure).toMatchObject({
      kind: 'upstream_error',
      message: expect.stringContaining('failed mid-stream: overloaded while serving [redacted]'),
    });
  });

  // Each message is cut to its first 200 or 300 characters: cut before the key is redacted, a key across the cut would no longer match.
  const across = (cut: number, prefix: string) => `${'x'.repeat(cut - 10 - prefix.length)}${API_KEY}`;
  it.each([
    [
      'an error body',
      {
        status: 401,
        headers: { 'content-type': 'application/json' },
        steps: [{ raw: JSON.stringify({ error: { message: across(300, '') } }) }],
      },
    ],
    ['an {"error": ...} frame', { steps: [{ chunk: { error: { message: across(300, '') } } }, { stall: true }] }],
    ['a frame that is not JSON', { steps: [{ data: `{${across(200, '{')}` }, { stall: true }] }],
    ['a chunk rxgate cannot read', { steps: [{ data: `{"choices":7,"x":"${across(200, '{"choices":7,"x":"')}"}` }, { stall: true }] }],
  ] satisfies [string, UpstreamScript][])('%s with the key across the cut: none of the key shows', async (_what, script) => {
    const { failure } = await failureOf(script);
    expect(failure.message).toContain('[redacted]');
    expect(failure.message).not.toContain(API_KEY.slice(0, 10));
  });

  it('silence before the first token: first_token_timeout, 504, and the socket is closed', async () => {
    const { failure } = await failureOf({ steps: [frames.role(), { stall: true }] }, { firstTokenTimeoutMs: 150 });
    expect(failure).toMatchObject({ kind: 'first_token_timeout', message: expect.stringContaining('150 ms') });
    expect(toOpenAIError(failure).status).toBe(504);
    expect(await upstream!.requests[0]!.closed).toMatchObject({ finished: false });
  });

  it('an answer slower than requestTimeoutMs: timeout, 504, and the socket is closed', async () => {
    const trickle = Array.from({ length: 100 }, () => [frames.text('.'), { delayMs: 20 }]).flat();
    const { failure, events } = await failureOf({ steps: trickle }, { requestTimeoutMs: 200 });
    expect(failure).toMatchObject({ kind: 'timeout', message: expect.stringContaining('200 ms') });
    expect(toOpenAIError(failure).status).toBe(504);
    expect(events.length).toBeGreaterThan(0);
    expect(await upstream!.requests[0]!.closed).toMatchObject({ finished: false });
  });

  it('429: rate_limited, with Retry-After in the message', async () => {
    const { failure } = await failureOf({
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '7' },
      steps: [{ raw: JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests' } }) }],
    });
    expect(failure).toMatchObject({ kind: 'rate_limited', status: 429, message: expect.stringContaining('Retry-After: 7') });
    expect(failure.message).toContain('Rate limit reached');
    expect(toOpenAIError(failure).status).toBe(502);
  });

  it('401: unauthorized, and an upstream that echoes the key does not leak it', async () => {
    const { failure } = await failureOf({
      status: 401,
      headers: { 'content-type': 'application/json' },
      steps: [{ raw: JSON.stringify({ error: { message: `Incorrect API key provided: ${API_KEY}` } }) }],
    });
    expect(failure).toMatchObject({
      kind: 'unauthorized',
      status: 401,
      message: expect.stringContaining('Incorrect API key provided: [redacted]'),
    });
  });

  it('500: bad_status with the upstream text', async () => {
    const { failure } = await failureOf({ status: 500, headers: { 'content-type': 'text/plain' }, steps: [{ raw: 'internal oops' }] });
    expect(failure).toMatchObject({ kind: 'bad_status', status: 500, message: expect.stringContaining('HTTP 500: internal oops') });
    expect(toOpenAIError(failure).status).toBe(502);
  });

  it('an error body that never ends: bad_status with its first words, read no further, and the socket is closed', async () => {
    // Read to its end, this body would hold the error back until the idle timeout; a streaming one, buffered without end.
    const { failure } = await failureOf({
      status: 503,
      headers: { 'content-type': 'text/plain' },
      steps: [{ raw: `upstream on fire ${'x'.repeat(64 * 1024)}` }, { stall: true }],
    });
    expect(failure).toMatchObject({ kind: 'bad_status', status: 503 });
    expect(failure.message).toMatch(/answered HTTP 503: upstream on fire x{283}$/);
    expect(await upstream!.requests[0]!.closed).toMatchObject({ finished: false });
  });
});
