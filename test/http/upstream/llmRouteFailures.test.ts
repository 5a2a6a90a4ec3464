import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { LlmAgentOptions } from '../../../src/agent/llm/createLlmAgent.js';
import { dataFrames, readUntil } from '../../support/readSse.js';
import { frames, type UpstreamScript } from '../../support/scriptedUpstream.js';
import { TEST_API_KEY, useLlmGateway } from '../../support/startLlmGateway.js';

// Every upstream failure, through POST /v1/chat/completions: an error frame when streaming, an
// HTTP error when not, the upstream key nowhere, and the service still healthy afterwards.

const API_KEY = TEST_API_KEY;
const gateways = useLlmGateway();
const QUESTION = [{ role: 'user' as const, content: 'hello' }];

interface FailureCase {
  readonly name: string;
  readonly kind: string;
  readonly status: 502 | 504;
  readonly message: string;
  /** No script: nothing listens at the base URL; `unaccepting`: a listener that accepts nothing. */
  readonly script?: UpstreamScript | 'unaccepting';
  readonly agent?: Partial<LlmAgentOptions>;
  /** Streaming only: what the client must have read before the upstream goes on. */
  readonly readFirst?: string;
}

let clientRead: () => void = () => undefined;
const partialRead = () => new Promise<void>((resolve) => (clientRead = resolve));

const CASES: readonly (() => FailureCase)[] = [
  () => ({ name: 'connection refused', kind: 'unreachable', status: 502, message: 'ECONNREFUSED' }),
  () => ({
    name: 'a connection never accepted',
    kind: 'connect_timeout',
    status: 504,
    message: 'did not accept the connection in time (connectMs)',
    script: 'unaccepting',
    agent: { connectTimeoutMs: 50 },
  }),
  () => ({
    name: 'an answer slower than the request timeout',
    kind: 'timeout',
    status: 504,
    message: 'did not finish its answer within 200 ms',
    script: { steps: Array.from({ length: 100 }, () => [frames.text('.'), { delayMs: 20 }]).flat() },
    agent: { requestTimeoutMs: 200 },
  }),
  () => ({
    name: 'silence before the first token',
    kind: 'first_token_timeout',
    status: 504,
    message: 'sent no token within 150 ms',
    script: { steps: [frames.role(), { stall: true }] },
    agent: { firstTokenTimeoutMs: 150 },
  }),
  () => ({
    name: '401 that echoes the key',
    kind: 'unauthorized',
    status: 502,
    message: 'Incorrect API key provided: [redacted]',
    script: {
      status: 401,
      headers: { 'content-type': 'application/json' },
      steps: [{ raw: JSON.stringify({ error: { message: `Incorrect API key provided: ${API_KEY}` } }) }],
    },
  }),
  () => ({
    name: '429 with Retry-After',
    kind: 'rate_limited',
    status: 502,
    message: 'Retry-After: 7',
    script: {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '7' },
      steps: [{ raw: JSON.stringify({ error: { message: 'Rate limit reached' } }) }],
    },
  }),
  () => ({
    name: '500',
    kind: 'bad_status',
    status: 502,
    message: 'HTTP 500: internal oops',
    script: { status: 500, headers: { 'content-type': 'text/plain' }, steps: [{ raw: 'internal oops' }] },
  }),
  () => ({
    name: 'a body that is not SSE',
    kind: 'not_sse',
    status: 502,
    message: '"application/json"',
    script: { headers: { 'content-type': 'application/json' }, steps: [{ raw: '{"choices":[]}' }] },
  }),
  () => ({
    name: 'a frame that is not JSON',
    kind: 'malformed_frame',
    status: 502,
    message: 'not JSON: {"choices": [',
    script: { steps: [frames.text('ok'), { data: '{"choices": [' }, { stall: true }] },
  }),
  () => ({
    name: 'a connection dropped mid-stream',
    kind: 'dropped',
    status: 502,
    message: 'dropped the connection in the middle of the stream',
    script: { steps: [frames.role(), frames.text('partial'), { waitFor: partialRead() }, { reset: true }] },
    readFirst: 'partial',
  }),
  () => ({
    name: 'a body that ends before it finished',
    kind: 'dropped',
    status: 502,
    message: 'no finish_reason and no [DONE]',
    script: { steps: [frames.text('partial')] },
  }),
  () => ({
    name: 'an error frame that echoes the key',
    kind: 'upstream_error',
    status: 502,
    message: 'failed mid-stream: overloaded while serving [redacted]',
    script: {
      steps: [
        frames.text('a'),
        { chunk: { error: { message: `overloaded while serving ${API_KEY}`, type: 'server_error' } } },
        { stall: true },
      ],
    },
  }),
];

function start({ script, agent }: FailureCase) {
  if (script === 'unaccepting') return gateways.startUnaccepting(agent);
  return script ? gateways.start([script], agent) : gateways.startUnreachable(agent);
}

function chat(url: string, stream: boolean) {
  return fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'rxgate-agent', stream, messages: QUESTION }),
  });
}

describe.each(CASES.map((make) => [make().name, make] as const))('upstream failure through the route: %s', (_name, make) => {
  it('streams one error frame with its code and no [DONE] nor finish_reason; answers non-streaming with its status; leaks no key; stays healthy', async () => {
    const failure = make();
    const { upstream, gateway } = await start(failure);
    const { url, log } = gateway;
    const envelope = {
      error: {
        message: expect.stringContaining(failure.message),
        type: 'upstream_error',
        param: null,
        code: failure.kind === 'upstream_error' ? failure.kind : `upstream_${failure.kind}`,
      },
    };

    const streamed = await chat(url, true);
    const streamFailure = log.next((line) => line.msg === 'run failed');
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    let text = '';
    if (failure.readFirst) {
      text = await readUntil(streamed.body!, (read) => read.includes(failure.readFirst!));
      clientRead();
    }
    text += await readUntil(streamed.body!, () => false);
    const sent = dataFrames(text);
    expect(sent.at(-1)).toEqual(envelope);
    expect(sent).not.toContain('[DONE]');
    const finishes = sent
      .flatMap((frame) => (frame as { choices?: { finish_reason: string | null }[] }).choices ?? [])
      .map((choice) => choice.finish_reason);
    expect(finishes.filter((reason) => reason !== null)).toEqual([]);
    expect(text).not.toContain(API_KEY);

    expect(await streamFailure).toMatchObject({
      level: 40,
      err: { message: expect.stringContaining(failure.message), kind: failure.kind },
    });

    const answered = await chat(url, false);
    const body = await answered.text();
    expect(answered.status).toBe(failure.status);
    expect(answered.headers.get('content-type')).toMatch(/^application\/json/);
    expect(JSON.parse(body)).toEqual(envelope);
    expect(body).not.toContain(API_KEY);

    // Every upstream request rxgate made is over: none is left open behind a failed run.
    for (const request of upstream?.requests ?? []) await request.closed;
    expect(await log.next((line) => line.msg === 'request' && line.status === 200)).toMatchObject({ outcome: 'error' });
    expect(await log.next((line) => line.msg === 'request' && line.status === failure.status)).toMatchObject({ outcome: 'error' });
    expect(log.lines.filter((line) => line.msg === 'run failed')).toEqual([
      expect.objectContaining({ err: expect.objectContaining({ message: expect.stringContaining(failure.message) }) }),
      expect.objectContaining({ err: expect.objectContaining({ message: expect.stringContaining(failure.message) }) }),
    ]);
    expect(log.text()).not.toContain(API_KEY);

    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
  });
});

describe('upstream failures and the official openai SDK', () => {
  it('raises APIError for the error frame of a stream, and a 502 APIError without streaming', async () => {
    const { url } = (await start(CASES.map((make) => make()).find((failure) => failure.name === '500')!)).gateway;
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0 });

    const stream = await client.chat.completions.create({ model: 'rxgate-agent', messages: QUESTION, stream: true });
    const read = async () => {
      for await (const chunk of stream) expect(chunk.choices[0]?.finish_reason ?? null).toBeNull();
    };
    const streamed = await read().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(streamed).toBeInstanceOf(OpenAI.APIError);
    expect(streamed).toMatchObject({ message: expect.stringContaining('HTTP 500: internal oops') });

    const answered = await client.chat.completions.create({ model: 'rxgate-agent', messages: QUESTION }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(answered).toBeInstanceOf(OpenAI.APIError);
    expect(answered).toMatchObject({ status: 502, code: 'upstream_bad_status', type: 'upstream_error' });
  });
});
