import { describe, expect, it } from 'vitest';
import { dataFrames, readUntil } from '../../support/readSse.js';
import { followRun } from '../../support/followRun.js';
import { sampleOf } from '../../support/metricSamples.js';
import { post } from '../../support/runsClient.js';
import { answer, frames, type UpstreamScript } from '../../support/scriptedUpstream.js';
import { SMART, useRoutedGateway } from '../../support/startRoutedGateway.js';

// Several upstreams behind a routes file, each fault played by a real upstream over HTTP: what
// fails over before the first content, what never does after it, and how many upstream requests each costs.

const start = useRoutedGateway();

const jsonError = (status: number, body: unknown, headers: Record<string, string> = {}): UpstreamScript => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  steps: [{ raw: JSON.stringify(body) }],
});
const fromBackup: UpstreamScript = {
  steps: [frames.role(), frames.text('from backup'), frames.finish('stop'), frames.usage(7, 3), frames.done()],
};

const QUICK_RETRY = { attempts: 2, baseMs: 20, capMs: 40, maxRetryAfterMs: 30_000 };

async function ask(
  url: string,
  { model = 'smart', stream = false, signal }: { model?: string; stream?: boolean; signal?: AbortSignal } = {},
) {
  return fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model,
      stream,
      stream_options: stream ? { include_usage: true } : undefined,
      messages: [{ role: 'user', content: 'hi' }],
    }),
    signal,
  });
}

async function streamed(url: string) {
  const response = await ask(url, { stream: true });
  return dataFrames(await readUntil(response.body!, () => false));
}

describe('failover before the first content', () => {
  it.each([
    ['a 500', [jsonError(500, { error: { message: 'boom' } })]],
    ['a reset before headers', [{ resetBeforeHeaders: true }]],
    ['a malformed chunk', [{ steps: [frames.role(), { data: '{not json' }] }]],
    ['an error frame before content', [{ steps: [frames.role(), { chunk: { error: { message: 'overloaded' } } }] }]],
    ['a cut before content', [{ steps: [frames.role(), { reset: true }] }]],
  ] as const)("%s on main: the answer is backup's, its model the route name, its usage and upstream backup's", async (_name, main) => {
    const { gateway, scripted } = await start({ main, backup: [fromBackup] }, SMART);
    const response = await ask(gateway.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-rxgate-upstream')).toBe('upstream=backup; model=backup-model');
    const body = (await response.json()) as {
      model: string;
      choices: { message: { content: string } }[];
      usage: { prompt_tokens: number };
    };
    expect(body.model).toBe('smart');
    expect(body.choices[0]!.message.content).toBe('from backup');
    expect(body.usage.prompt_tokens).toBe(7);
    expect(scripted('main').requests).toHaveLength(1);
    expect(scripted('backup').requests).toHaveLength(1);
    expect(scripted('backup').requests[0]!.body.model).toBe('backup-model');
    expect(scripted('backup').requests[0]!.headers.authorization).toBe('Bearer sk-routed-secret-5678');
  });

  it('connection refused on main: backup answers, streaming, with one role chunk and [DONE], and no upstream named', async () => {
    const { gateway, scripted } = await start({ main: 'refused', backup: [fromBackup] }, SMART);
    const response = await ask(gateway.url, { stream: true });
    // The headers go out before the answer is known to be main's: naming its first attempt would name main.
    expect(response.headers.get('x-rxgate-upstream')).toBeNull();
    const sent = dataFrames(await readUntil(response.body!, () => false));
    expect(sent.at(-1)).toBe('[DONE]');
    const roles = sent.filter((frame) => (frame as { choices?: { delta?: { role?: string } }[] }).choices?.[0]?.delta?.role);
    expect(roles).toHaveLength(1);
    expect(JSON.stringify(sent)).toContain('from backup');
    expect(scripted('backup').requests).toHaveLength(1);
  });

  it('a silent upstream ends at firstByteMs and fails over; its request is closed', async () => {
    const { gateway, silent, scripted } = await start({ main: 'silent', backup: [fromBackup] }, SMART, { firstByteMs: 200 });
    const response = await ask(gateway.url);
    expect(((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe('from backup');
    expect(silent('main').requests).toHaveLength(1);
    await silent('main').requests[0]!.closed;
    expect(scripted('backup').requests).toHaveLength(1);
  });

  it('a connection main never accepts ends at connectMs and fails over, streaming or not', async () => {
    const { gateway, scripted, metrics } = await start({ main: 'unaccepting', backup: [fromBackup, fromBackup] }, SMART, {
      connectMs: 50,
    });
    const response = await ask(gateway.url);
    expect(response.headers.get('x-rxgate-upstream')).toBe('upstream=backup; model=backup-model');
    expect(((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe('from backup');
    const sent = await streamed(gateway.url);
    expect(sent.at(-1)).toBe('[DONE]');
    expect(JSON.stringify(sent)).toContain('from backup');
    expect(scripted('backup').requests).toHaveLength(2);
    const text = await metrics.registry.metrics();
    expect(sampleOf(text, 'rxgate_upstream_attempts_total', { upstream: 'main', outcome: 'connect_timeout' })).toBeGreaterThanOrEqual(1);
  });

  it('a slow first token fails over at firstContentMs', async () => {
    const { gateway, scripted } = await start({ main: [{ steps: [frames.role(), { stall: true }] }], backup: [fromBackup] }, SMART, {
      firstContentMs: 200,
    });
    const response = await ask(gateway.url);
    expect(response.headers.get('x-rxgate-upstream')).toBe('upstream=backup; model=backup-model');
    expect((await scripted('main').requests[0]!.closed).finished).toBe(false);
  });

  it('401 on main: backup answers, and main is not asked again while its breaker is open', async () => {
    const { gateway, scripted } = await start({ main: [jsonError(401, { error: { message: 'bad key' } })], backup: [fromBackup] }, SMART);
    expect((await ask(gateway.url)).status).toBe(200);
    expect((await ask(gateway.url)).status).toBe(200);
    expect(scripted('main').requests).toHaveLength(1);
    expect(scripted('backup').requests).toHaveLength(2);
  });
});

describe('which upstream answered, in run events', () => {
  it('a run that fails over: run.upstream names backup and its model, just before the first delta, and only once', async () => {
    const { gateway, scripted } = await start(
      { main: [jsonError(503, { error: { message: 'overloaded' } })], backup: [fromBackup] },
      SMART,
    );
    const created = await post(`${gateway.url}/v1/runs`, { input: 'hi', model: 'smart' });
    expect(created.status).toBe(202);
    const { run_id: runId } = (await created.json()) as { run_id: string };
    const events = await (await followRun(gateway.url, runId)).rest();
    expect(events.map((event) => event.event)).toEqual(['run.upstream', 'message.delta', 'run.completed']);
    expect(JSON.parse(events[0]!.data)).toEqual({ type: 'run.upstream', upstream: 'backup', model: 'backup-model', route: 'smart' });
    expect(scripted('main').requests).toHaveLength(1);
    expect(scripted('backup').requests).toHaveLength(1);
  });
});

describe('after the first content, never', () => {
  it('a stream cut after content ends with an error frame and no [DONE]; backup is never asked', async () => {
    let cut!: () => void;
    const seen = new Promise((resolve) => (cut = () => resolve(undefined)));
    const main: UpstreamScript = { steps: [frames.role(), frames.text('half'), { waitFor: seen }, { reset: true }] };
    const { gateway, scripted } = await start({ main: [main], backup: [fromBackup] }, SMART);
    const response = await ask(gateway.url, { stream: true });
    // Cut once the client holds the content, not before: before it, the cut would fail over.
    const reader = response.body!;
    let text = await readUntil(reader, (read) => read.includes('half'));
    cut();
    text += await readUntil(reader, () => false);
    const sent = dataFrames(text);
    expect(sent).not.toContain('[DONE]');
    expect(sent.at(-1)).toMatchObject({ error: { code: 'upstream_dropped' } });
    expect(scripted('backup').requests).toHaveLength(0);
  });

  it('a stall after content is an error at idleMs, never a clean end', async () => {
    const { gateway, scripted } = await start(
      { main: [{ steps: [frames.role(), frames.text('half'), { stall: true }] }], backup: [fromBackup] },
      SMART,
      {
        idleMs: 200,
      },
    );
    const sent = await streamed(gateway.url);
    expect(sent).not.toContain('[DONE]');
    expect(sent.at(-1)).toMatchObject({ error: { code: 'upstream_idle_timeout' } });
    expect(scripted('backup').requests).toHaveLength(0);
    await scripted('main').requests[0]!.closed;
  });
});

describe('what is not retried', () => {
  it('context length: exactly one attempt on the primary, then the context fallback only', async () => {
    const tooLong = jsonError(400, { error: { message: 'too long', code: 'context_length_exceeded' } });
    const { gateway, scripted } = await start(
      { main: [tooLong], backup: [fromBackup], other: [answer('from the plain fallback')] },
      {
        models: [
          { ...SMART.models[0], fallbacks: ['fast'], contextWindowFallbacks: ['long'] },
          { name: 'long', targets: [{ upstream: 'backup', model: 'long-model' }] },
          { name: 'fast', targets: [{ upstream: 'other', model: 'fast-model' }] },
        ],
      },
    );
    const response = await ask(gateway.url);
    expect(response.headers.get('x-rxgate-upstream')).toBe('upstream=backup; model=long-model');
    expect(((await response.json()) as { model: string }).model).toBe('smart');
    expect(scripted('main').requests).toHaveLength(1);
    expect(scripted('backup').requests).toHaveLength(1);
    expect(scripted('other').requests).toHaveLength(0);
  });

  it('a content filter: one attempt, its status and reason passed on, no fallback', async () => {
    const filtered = jsonError(400, { error: { message: 'flagged by the content filter', code: 'content_filter' } });
    const { gateway, scripted } = await start({ main: [filtered], backup: [fromBackup] }, SMART);
    const response = await ask(gateway.url);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('content_filter');
    expect(body.error.message).toContain('flagged by the content filter');
    expect(scripted('main').requests).toHaveLength(1);
    expect(scripted('backup').requests).toHaveLength(0);
  });
});

describe('retries and the budget', () => {
  it("honours Retry-After: 2: no second attempt before 1.8 s, by the upstream's own clock", async () => {
    const { gateway, scripted } = await start(
      { main: [jsonError(429, { error: { message: 'slow down' } }, { 'retry-after': '2' }), answer('later')] },
      { models: [{ name: 'smart', targets: [{ upstream: 'main', model: 'main-model' }] }], retry: QUICK_RETRY },
    );
    expect((await ask(gateway.url)).status).toBe(200);
    const [first, second] = scripted('main').requests;
    expect(second!.arrivedAt - first!.arrivedAt).toBeGreaterThanOrEqual(1800);
  });

  it('a persistent 429 is bounded by the budget; the client gets 429, Retry-After and x-should-retry: false', async () => {
    const limited = jsonError(429, { error: { message: 'slow down' } }, { 'retry-after': '0' });
    const { gateway, scripted, metrics } = await start(
      { main: [limited], backup: [limited] },
      { ...SMART, retry: { ...QUICK_RETRY, attempts: 5 }, budget: { maxAttempts: 3 } },
    );
    const response = await ask(gateway.url);
    expect(response.status).toBe(429);
    expect(response.headers.get('x-should-retry')).toBe('false');
    expect(response.headers.get('retry-after')).toBe('0');
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('upstream_rate_limited');
    expect(scripted('main').requests.length + scripted('backup').requests.length).toBe(3);
    const text = await metrics.registry.metrics();
    // Which target goes third depends on the jittered waits: the metrics count every attempt, each target tried.
    const attempts = ['main', 'backup'].map(
      (upstream) => sampleOf(text, 'rxgate_upstream_attempts_total', { upstream, outcome: 'rate_limited' }) ?? 0,
    );
    expect(attempts).toEqual([scripted('main').requests.length, scripted('backup').requests.length]);
    expect(Math.min(...attempts)).toBeGreaterThanOrEqual(1);
  });

  it('a Retry-After of 400 digits reaches the client clamped to a day, in digits, and the message does not echo it', async () => {
    const limited = jsonError(429, { error: { message: 'slow down' } }, { 'retry-after': '9'.repeat(400) });
    const { gateway } = await start({ main: [limited], backup: [limited] }, { ...SMART, retry: { ...QUICK_RETRY, attempts: 5 } });
    const response = await ask(gateway.url);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('86400');
    const { error } = (await response.json()) as { error: { message: string } };
    expect(error.message).toContain('Retry-After: 86400 s');
    expect(error.message).not.toContain('9'.repeat(20));
  });

  it('a flapping primary: its breaker opens, backup serves, and traffic returns to it after the cooldown and one trial', async () => {
    const down = jsonError(503, { error: { message: 'down' } });
    const { gateway, scripted, metrics } = await start(
      { main: [down, down, answer('main is back')], backup: [fromBackup] },
      { ...SMART, retry: { ...QUICK_RETRY, attempts: 1 }, breaker: { failures: 2, cooldownMs: 300 } },
    );
    await ask(gateway.url);
    await ask(gateway.url);
    expect(sampleOf(await metrics.registry.metrics(), 'rxgate_upstream_breaker_state', { upstream: 'main' })).toBe(2);
    await ask(gateway.url);
    expect(scripted('main').requests).toHaveLength(2);
    await expect
      .poll(async () => (await ask(gateway.url)).headers.get('x-rxgate-upstream'), { timeout: 5000, interval: 50 })
      .toBe('upstream=main; model=main-model');
    expect(scripted('main').requests).toHaveLength(3);
    expect(sampleOf(await metrics.registry.metrics(), 'rxgate_upstream_breaker_state', { upstream: 'main' })).toBe(0);
  });
});

describe('a client that leaves at the worst moment', () => {
  it('during a backoff: the wait ends, no other upstream request is made, none is left open', async () => {
    const { gateway, scripted } = await start(
      { main: [jsonError(503, { error: { message: 'down' } }, { 'retry-after': '30' })] },
      { models: [{ name: 'smart', targets: [{ upstream: 'main', model: 'main-model' }] }], retry: QUICK_RETRY },
    );
    const client = new AbortController();
    const response = await ask(gateway.url, { stream: true, signal: client.signal });
    const first = await scripted('main').request(0);
    await first.closed;
    client.abort();
    await response.body?.cancel().catch(() => undefined);
    await expect.poll(() => gateway.activeRuns.size).toBe(0);
    expect(scripted('main').requests).toHaveLength(1);
  });

  it('during a connect that gets no answer: that request is closed, and no failover follows', async () => {
    const { gateway, silent, scripted } = await start({ main: 'silent', backup: [fromBackup] }, SMART);
    const client = new AbortController();
    const response = await ask(gateway.url, { stream: true, signal: client.signal });
    await expect.poll(() => silent('main').requests.length).toBe(1);
    client.abort();
    await response.body?.cancel().catch(() => undefined);
    await silent('main').requests[0]!.closed;
    await expect.poll(() => gateway.activeRuns.size).toBe(0);
    expect(scripted('backup').requests).toHaveLength(0);
  });
});

describe('the model names', () => {
  it('GET /v1/models lists the routes; an unknown model is 404 model_not_found before anything runs', async () => {
    const { gateway, scripted } = await start({ main: [answer('x')], backup: [fromBackup] }, SMART);
    const list = (await (await fetch(`${gateway.url}/v1/models`)).json()) as { data: { id: string }[] };
    expect(list.data.map((model) => model.id)).toEqual(['smart']);
    expect((await fetch(`${gateway.url}/v1/models/smart`)).status).toBe(200);
    const response = await ask(gateway.url, { model: 'nope', stream: true });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('model_not_found');
    expect(scripted('main').requests).toHaveLength(0);
  });
});
