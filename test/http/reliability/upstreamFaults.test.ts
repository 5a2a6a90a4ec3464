import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/http/startServer.js';
import { dataFrames } from '../../support/readSse.js';
import { frames, type UpstreamScript } from '../../support/scriptedUpstream.js';
import { useStartedServer } from '../../support/startedServer.js';

// Every way an upstream can fail, through the real HTTP app, streaming and not: the right status
// or error frame, never a `finish_reason: "stop"` after a failure, and nothing left behind.

const FIRST_TOKEN_TIMEOUT_MS = 150;
const REQUEST_TIMEOUT_MS = 400;

interface Fault {
  readonly name: string;
  /** Undefined: nothing listens on the upstream's port. */
  readonly script?: UpstreamScript;
  readonly status: number;
  readonly code: string;
}

const trickle = Array.from({ length: 100 }, () => [frames.text('.'), { delayMs: 20 }]).flat();

const FAULTS: readonly Fault[] = [
  { name: 'connection refused', status: 502, code: 'upstream_unreachable' },
  { name: 'reset before headers', script: { resetBeforeHeaders: true }, status: 502, code: 'upstream_dropped' },
  {
    name: 'reset mid-stream',
    script: { steps: [frames.role(), frames.text('partial'), { delayMs: 30 }, { reset: true }] },
    status: 502,
    code: 'upstream_dropped',
  },
  {
    name: 'JSON instead of SSE',
    script: { headers: { 'content-type': 'application/json' }, steps: [{ raw: '{"choices":[]}' }] },
    status: 502,
    code: 'upstream_not_sse',
  },
  {
    name: 'HTML error page with status 200',
    script: { headers: { 'content-type': 'text/html' }, steps: [{ raw: '<html>oops</html>' }] },
    status: 502,
    code: 'upstream_not_sse',
  },
  {
    name: 'garbage data frames',
    script: { steps: [frames.text('a'), { data: '{"choices": [' }, { stall: true }] },
    status: 502,
    code: 'upstream_malformed_frame',
  },
  {
    name: 'garbage lines, then the body ends',
    script: { steps: [frames.text('a'), { raw: 'garbage\n\n\u0000\u00ff\n\n' }] },
    status: 502,
    code: 'upstream_dropped',
  },
  {
    name: 'an error frame mid-stream',
    script: { steps: [frames.text('a'), { chunk: { error: { message: 'overloaded', type: 'server_error' } } }, { stall: true }] },
    status: 502,
    code: 'upstream_error',
  },
  {
    name: 'silence before the first token',
    script: { steps: [frames.role(), { stall: true }] },
    status: 504,
    code: 'upstream_first_token_timeout',
  },
  {
    name: 'a stall mid-stream past the request timeout',
    script: { steps: [frames.text('a'), { stall: true }] },
    status: 504,
    code: 'upstream_timeout',
  },
  { name: 'an answer slower than the request timeout', script: { steps: trickle }, status: 504, code: 'upstream_timeout' },
  {
    name: '429 with Retry-After',
    script: {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '7' },
      steps: [{ raw: '{"error":{"message":"Rate limit reached"}}' }],
    },
    status: 502,
    code: 'upstream_rate_limited',
  },
  {
    name: '503 with a text body',
    script: { status: 503, headers: { 'content-type': 'text/plain' }, steps: [{ raw: 'maintenance' }] },
    status: 502,
    code: 'upstream_bad_status',
  },
];

const servers = useStartedServer();

const timers = () => process.getActiveResourcesInfo().filter((type) => type === 'Timeout').length;

const gatewayFor = (fault: Fault): Promise<RunningServer> =>
  servers.start(fault.script && [fault.script], {}, { firstTokenTimeoutMs: FIRST_TOKEN_TIMEOUT_MS, requestTimeoutMs: REQUEST_TIMEOUT_MS });

/** Nothing left behind: every upstream request's socket closed, no run registered, no timer of ours pending. */
async function expectNothingLeft(server: RunningServer, timersBefore: number): Promise<void> {
  for (const request of servers.upstream?.requests ?? []) await request.closed;
  await server.activeRuns.settled();
  expect(server.activeRuns.size).toBe(0);
  await expect.poll(() => timers()).toBeLessThanOrEqual(timersBefore);
}

const ask = (stream: boolean) => JSON.stringify({ model: 'rxgate-agent', stream, messages: [{ role: 'user', content: 'hello' }] });

describe.each(FAULTS)('upstream fault: $name', (fault) => {
  it(`non-streaming: HTTP ${fault.status} ${fault.code}`, async () => {
    const server = await gatewayFor(fault);
    const timersBefore = timers();
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: ask(false),
    });
    const body = (await response.json()) as { error: { code: string; type: string; message: string } };
    expect(response.status).toBe(fault.status);
    expect(body.error).toMatchObject({ code: fault.code, type: 'upstream_error' });
    if (fault.code === 'upstream_rate_limited') expect(body.error.message).toContain('Retry-After: 7');
    await expectNothingLeft(server, timersBefore);
  });

  it(`streaming: one error frame ${fault.code}, no finish_reason "stop", no [DONE]`, async () => {
    const server = await gatewayFor(fault);
    const timersBefore = timers();
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: ask(true),
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    const data = dataFrames(text) as Record<string, unknown>[];
    expect(data.at(-1)).toMatchObject({ error: { code: fault.code, type: 'upstream_error' } });
    expect(data.filter((frame) => 'error' in frame)).toHaveLength(1);
    expect(text).not.toContain('"finish_reason":"stop"');
    expect(text).not.toContain('data: [DONE]');
    await expectNothingLeft(server, timersBefore);
  });
});
