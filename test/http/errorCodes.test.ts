import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Agent } from '../../src/agent/agent.js';
import { InterruptReason } from '../../src/agent/interruptReason.js';
import { createOfflineAgent } from '../../src/agent/offline/createOfflineAgent.js';
import { approvalPolicy } from '../../src/agent/tools/approvalPolicy.js';
import { BUILTIN_TOOLS } from '../../src/agent/tools/createToolRegistry.js';
import { loadConfig } from '../../src/config.js';
import { createAgentFor } from '../../src/createAgentFor.js';
import { AgentError } from '../../src/errors/AgentError.js';
import type { AppConfig, CreateAppOptions } from '../../src/http/createApp.js';
import { startServer } from '../../src/http/startServer.js';
import { silentLogger } from '../../src/logger.js';
import { deadline } from '../../src/operators/deadline.js';
import { SqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import { budgetWindow } from '../../src/money/budgetWindow.js';
import { StoreError } from '../../src/errors/StoreError.js';
import { exchange } from './reliability/support/rawHttp.js';
import { failingStore } from '../support/failingStore.js';
import { followRun } from '../support/followRun.js';
import { ManualAgent } from '../support/manualAgent.js';
import { createScriptedUpstream, frames, unusedBaseUrl, type UpstreamScript } from '../support/scriptedUpstream.js';
import { finish, say, ScriptedAgent } from '../support/scriptedAgent.js';
import { sseEvents } from '../support/sseEvents.js';
import { blockEventLoop } from '../support/blockEventLoop.js';
import { startApp, type TestApp } from '../support/startApp.js';
import { createSilentUpstream } from '../support/startRoutedGateway.js';
import { createUnacceptingUpstream } from '../support/unacceptingUpstream.js';
import { as, entryOf, teamKeys } from '../support/teamKeys.js';

// The README's error-code table is the list of every `code` rxgate sends; each row here has a
// trigger that provokes that code over real HTTP and reports what the client received.

interface Row {
  readonly code: string;
  /** Undefined: the code is only ever found in a stream's failure event or a stored object. */
  readonly status?: number;
  readonly type?: string;
}

/** What a client received: the `code` and `type`, and the HTTP status when the error was the answer. */
interface Received {
  readonly code: string | null;
  readonly status?: number;
  readonly type?: string;
}

function readmeCodes(): Row[] {
  const lines = readFileSync('README.md', 'utf8').split('\n');
  const header = lines.indexOf('| Code | Status | Type | When |');
  expect(header, 'the README has the error-code table').toBeGreaterThan(0);
  const rows: Row[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [code, status, type] = line.split(' | ').map((cell) => cell.replace(/^\| /, ''));
    rows.push({
      code: code!.replaceAll('`', ''),
      status: status === '—' ? undefined : Number(status),
      type: type === '—' ? undefined : type!.replaceAll('`', ''),
    });
  }
  return rows;
}

/** Every `.ts` file under `dir`, with its text. */
function sources(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts'))
    .map((path) => ({ path: join(dir, path), text: readFileSync(join(dir, path), 'utf8') }));
}

/** The string literals of the `code` argument (the fifth) of every `new RequestError(...)` in `src/`. */
function requestErrorCodesInSource(): Set<string> {
  const codes = new Set<string>();
  for (const { text } of sources('src')) {
    for (let at = text.indexOf('new RequestError('); at >= 0; at = text.indexOf('new RequestError(', at + 1)) {
      const args: string[] = [''];
      let depth = 0;
      let quote: string | undefined;
      let escaped = false;
      for (const char of text.slice(at + 'new RequestError('.length)) {
        if (quote === undefined && depth === 0 && char === ')') break;
        if (quote === undefined && depth === 0 && char === ',') args.push('');
        else args[args.length - 1] += char;
        if (quote !== undefined) {
          if (!escaped && char === quote) quote = undefined;
          escaped = !escaped && char === '\\';
        } else if ('\'"`'.includes(char)) quote = char;
        else if ('([{'.includes(char)) depth++;
        else if (')]}'.includes(char)) depth--;
      }
      for (const [, code] of (args[4] ?? '').matchAll(/'([a-z_]+)'/g)) codes.add(code!);
    }
  }
  return codes;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** The app on a free port, closed after the test; whatever still runs in it is stopped first. */
async function open(
  agent: Agent = new ScriptedAgent([say('ok'), finish()]),
  overrides: Partial<AppConfig> = {},
  options: Partial<CreateAppOptions> = {},
): Promise<TestApp> {
  const app = await startApp(agent, overrides, options);
  closers.push(async () => {
    await app.activeRuns.stopAll(InterruptReason.shuttingDown);
    await app.close();
  });
  return app;
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });

const USER = [{ role: 'user', content: 'hi' }];
const chat = (url: string) => post(`${url}/v1/chat/completions`, { messages: USER });

/** The error envelope of an HTTP answer. */
async function envelope(response: Response): Promise<Received> {
  const { error } = (await response.json()) as { error: { code: string | null; type: string } };
  return { status: response.status, code: error.code, type: error.type };
}

/** The id of a stored (foreground, non-streaming) response. */
async function createResponse(url: string, body: Record<string, unknown> = {}): Promise<string> {
  const response = await post(`${url}/v1/responses`, { input: 'hi', ...body });
  expect(response.status).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

/** A non-streaming chat completion through the LLM agent in front of `script` (none: nothing listens), with short timeouts. */
async function viaUpstream(script?: UpstreamScript | 'silent' | 'unaccepting', settings: Record<string, string> = {}): Promise<Received> {
  let baseUrl: string;
  if (script) {
    const upstream =
      script === 'silent'
        ? await createSilentUpstream()
        : script === 'unaccepting'
          ? await createUnacceptingUpstream()
          : await createScriptedUpstream([script]);
    closers.push(() => upstream.close());
    baseUrl = upstream.baseUrl;
  } else baseUrl = await unusedBaseUrl();
  const config = loadConfig({
    RXGATE_UPSTREAM_URL: baseUrl,
    RXGATE_UPSTREAM_MODEL: 'up',
    RXGATE_UPSTREAM_API_KEY: 'sk-test',
    RXGATE_TOOLS: '',
    RXGATE_UPSTREAM_TIMEOUT_MS: '300',
    RXGATE_UPSTREAM_FIRST_TOKEN_TIMEOUT_MS: '150',
    ...settings,
  });
  const { url } = await open(createAgentFor(config, silentLogger));
  return envelope(await chat(url));
}

const jsonError = (status: number, body: string): UpstreamScript => ({
  status,
  headers: { 'content-type': 'application/json' },
  steps: [{ raw: body }],
});

/** A non-streaming chat completion with a silent agent behind the `deadline()` operator. */
async function pastDeadline(limit: { totalMs?: number; firstTokenMs?: number }): Promise<Received> {
  const { url } = await open(
    new ScriptedAgent([{ silent: true }]),
    {},
    { operators: { events: [({ cancellation }) => deadline({ ...limit, cancellation })] } },
  );
  return envelope(await chat(url));
}

/** The envelope of what Node refuses itself, read from a raw exchange with a real server (its `clientError` handler). */
async function refusedByNode(raw: string, waitMs?: number): Promise<Received> {
  const running = await startServer({
    agent: new ManualAgent(),
    config: loadConfig({ RXGATE_PORT: '0', RXGATE_HEADERS_TIMEOUT_MS: '300', RXGATE_REQUEST_TIMEOUT_MS: '600' }),
  });
  closers.push(() => running.shutdown(0));
  return rawEnvelope(running.url, raw, waitMs);
}

/** The error envelope of the answer to `raw`, written to the socket as it is. */
async function rawEnvelope(url: string, raw: string, waitMs?: number): Promise<Received> {
  const { text } = await exchange(url, [raw], waitMs === undefined ? {} : { waitMs });
  const [head = '', body = ''] = text.split('\r\n\r\n', 2);
  const { error } = JSON.parse(body) as { error: { code: string | null; type: string } };
  return { status: Number(head.split(' ')[1]), code: error.code, type: error.type };
}

/** The `error` event a Responses WebSocket answers `message` with: its code and type (it has no HTTP status of its own). */
async function socketEnvelope(url: string, message: string): Promise<Received> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/responses`);
  await once(socket, 'open');
  socket.send(message);
  const [data] = (await once(socket, 'message')) as [Buffer];
  socket.close();
  const { error } = JSON.parse(data.toString()) as { error: { code: string | null; type: string } };
  return { code: error.code, type: error.type };
}

const UPGRADE = 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13';

/** A run of the offline agent waiting for a person to approve its `note` call. */
async function waitingForApproval() {
  const { url } = await open(createOfflineAgent({ tools: BUILTIN_TOOLS, requireApproval: approvalPolicy(['note']) }));
  const { run_id: runId } = (await (await post(`${url}/v1/runs`, { input: 'note milk' })).json()) as { run_id: string };
  const { approval_id: approvalId } = await (await followRun(url, runId)).until<{ approval_id: string }>('approval.required');
  return { url, runId, approvalId };
}

const TRIGGERS: Record<string, () => Promise<Received>> = {
  previous_response_not_found: async () =>
    socketEnvelope((await open()).url, JSON.stringify({ type: 'response.create', input: 'hi', previous_response_id: 'resp_nope' })),
  invalid_event: async () => socketEnvelope((await open()).url, JSON.stringify({ type: 'session.update' })),
  invalid_upgrade: async () => rawEnvelope((await open()).url, `GET /v1/responses HTTP/1.1\r\nHost: 127.0.0.1\r\n${UPGRADE}\r\n\r\n`),
  websocket_disabled: async () =>
    rawEnvelope(
      (await open(undefined, { ws: 'off' })).url,
      `GET /v1/responses HTTP/1.1\r\nHost: 127.0.0.1\r\n${UPGRADE}\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
    ),
  model_not_found: async () => envelope(await fetch(`${(await open()).url}/v1/models/no-such-model`)),
  unsupported_parameter: async () => envelope(await post(`${(await open()).url}/v1/chat/completions`, { messages: USER, n: 2 })),
  unknown_tool_call: async () =>
    envelope(
      await post(`${(await open()).url}/v1/chat/completions`, {
        messages: [...USER, { role: 'tool', tool_call_id: 'call_nope', content: '42' }],
      }),
    ),
  tool_name_conflict: async () => {
    const { url } = await open(createOfflineAgent({ tools: BUILTIN_TOOLS }));
    const tools = [{ type: 'function', function: { name: 'calculator', parameters: { type: 'object', properties: {} } } }];
    return envelope(await post(`${url}/v1/chat/completions`, { messages: USER, tools }));
  },
  item_not_found: async () =>
    envelope(
      await post(`${(await open()).url}/v1/responses`, {
        input: [
          { type: 'item_reference', id: 'msg_nope' },
          { role: 'user', content: 'hi' },
        ],
      }),
    ),
  origin_not_allowed: async () =>
    envelope(
      await post(
        `${(await open()).url}/v1/chat/completions`,
        { messages: USER },
        { origin: 'https://elsewhere.example', 'content-type': 'text/plain' },
      ),
    ),
  host_not_allowed: async () =>
    rawEnvelope((await open()).url, 'GET /v1/models HTTP/1.1\r\nHost: rebound.example\r\nConnection: close\r\n\r\n'),
  bad_http_request: async () => refusedByNode('GARBAGE / NOT-HTTP\r\n\r\n'),
  headers_too_large: async () => refusedByNode(`GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: ${'x'.repeat(20 * 1024)}\r\n\r\n`),
  request_timeout: async () => refusedByNode('GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\n', 3_300),
  conversation_too_large: async () => {
    const { url } = await open(new ScriptedAgent([say('ok'), finish()]), { maxConversationBytes: 1_000 });
    const first = await createResponse(url, { input: 'x'.repeat(2_000) });
    return envelope(await post(`${url}/v1/responses`, { input: 'hi', previous_response_id: first }));
  },
  conversation_not_found: async () => envelope(await fetch(`${(await open()).url}/v1/conversations/conv_nope`)),
  conversation_locked: async () => {
    const { url, store } = await open();
    const { id } = (await (await post(`${url}/v1/conversations`, {})).json()) as { id: string };
    await store.conversations.lock(id, 'another response');
    return envelope(await post(`${url}/v1/responses`, { input: 'hi', conversation: id }));
  },
  job_not_found: async () => envelope(await fetch(`${(await open()).url}/api/jobs/job_nope`)),
  invalid_schedule: async () => envelope(await post(`${(await open()).url}/api/jobs`, { name: 'n', schedule: 'whenever', input: 'hi' })),
  invalid_timezone: async () =>
    envelope(await post(`${(await open()).url}/api/jobs`, { name: 'n', schedule: '0 9 * * *', timezone: 'Mars/Olympus', input: 'hi' })),
  invalid_json: async () => envelope(await post(`${(await open()).url}/v1/chat/completions`, '{"messages": [')),
  invalid_body: async () => envelope(await post(`${(await open()).url}/v1/chat/completions`, [1, 2])),
  unsupported_encoding: async () =>
    envelope(
      await post(`${(await open()).url}/v1/chat/completions`, { messages: USER }, { 'content-type': 'application/json; charset=latin1' }),
    ),
  body_too_large: async () =>
    envelope(
      await post(`${(await open(undefined, { maxBodyBytes: 100 })).url}/v1/chat/completions`, { messages: USER, model: 'm'.repeat(200) }),
    ),
  missing_required_parameter: async () => envelope(await post(`${(await open()).url}/v1/chat/completions`, { model: 'm' })),
  invalid_value: async () => envelope(await post(`${(await open()).url}/v1/chat/completions`, { messages: 'hi' })),
  invalid_idempotency_key: async () =>
    envelope(await post(`${(await open()).url}/v1/runs`, { input: 'hi' }, { 'Idempotency-Key': 'with space' })),
  idempotency_key_mismatch: async () => {
    const { url } = await open();
    await post(`${url}/v1/runs`, { input: 'hi' }, { 'Idempotency-Key': 'k1' });
    return envelope(await post(`${url}/v1/runs`, { input: 'other' }, { 'Idempotency-Key': 'k1' }));
  },
  unsupported_idempotency_key: async () =>
    envelope(await post(`${(await open()).url}/v1/responses`, { input: 'hi', store: false }, { 'Idempotency-Key': 'k1' })),
  idempotency_key_in_use: async () => {
    // The first request claims the key, then fails before its response is stored: the key stays claimed.
    const store = new SqliteStore({ dataDir: ':memory:' });
    store.responses.save = () => Promise.reject(new StoreError('save a response', 'the disk is full'));
    const { url } = await open(undefined, {}, { store });
    await post(`${url}/v1/responses`, { input: 'hi' }, { 'Idempotency-Key': 'k1' });
    return envelope(await post(`${url}/v1/responses`, { input: 'hi' }, { 'Idempotency-Key': 'k1' }));
  },
  budget_exceeded: async () => {
    // The key's day is already spent: a run is refused before it starts.
    const budget = { usd: 1, period: 'day' as const };
    const store = new SqliteStore({ dataDir: ':memory:' });
    await store.budgets.settle({ key: 'capped', id: 'spent', usd: 1, window: budgetWindow(budget, Date.now()) });
    const { url } = await open(undefined, {}, { store, keys: () => teamKeys(entryOf('capped', { budget })) });
    return envelope(await fetch(`${url}/v1/runs`, { method: 'POST', headers: as('capped'), body: JSON.stringify({ input: 'hi' }) }));
  },
  rate_limit_exceeded: async () => {
    const { url } = await open(undefined, {}, { keys: () => teamKeys(entryOf('once', { rpm: 1 })) });
    await fetch(`${url}/v1/models`, { headers: as('once') });
    return envelope(await fetch(`${url}/v1/models`, { headers: as('once') }));
  },
  invalid_api_key: async () => envelope(await fetch(`${(await open(undefined, { apiKey: 's3cret' })).url}/v1/models`)),
  unknown_url: async () => envelope(await fetch(`${(await open()).url}/v1/nope`)),
  run_not_found: async () => envelope(await fetch(`${(await open()).url}/v1/runs/run_nope`)),
  run_not_running: async () => {
    const { url } = await open();
    const { run_id } = (await (await post(`${url}/v1/runs`, { input: 'hi' })).json()) as { run_id: string };
    // The events end once the run has: then it is finished.
    await (await fetch(`${url}/v1/runs/${run_id}/events`)).text();
    return envelope(await post(`${url}/v1/runs/${run_id}/stop`, ''));
  },
  approval_not_found: async () => {
    const { url, runId } = await waitingForApproval();
    return envelope(await post(`${url}/v1/runs/${runId}/approval`, { approval_id: 'apr_nope', choice: 'once' }));
  },
  approval_already_resolved: async () => {
    const { url, runId, approvalId } = await waitingForApproval();
    expect((await post(`${url}/v1/runs/${runId}/approval`, { approval_id: approvalId, choice: 'deny' })).status).toBe(200);
    return envelope(await post(`${url}/v1/runs/${runId}/approval`, { approval_id: approvalId, choice: 'deny' }));
  },
  response_not_found: async () => envelope(await fetch(`${(await open()).url}/v1/responses/resp_nope`)),
  response_deleted: async () => {
    const { url } = await open();
    const id = await createResponse(url);
    expect((await fetch(`${url}/v1/responses/${id}`, { method: 'DELETE' })).status).toBe(200);
    return envelope(await fetch(`${url}/v1/responses/${id}`));
  },
  response_evicted: async () => {
    const store = new SqliteStore({ dataDir: ':memory:', retention: { maxItems: 1, maxAgeMs: 60_000, usageMaxAgeMs: 60_000 } });
    closers.push(async () => store.close());
    const { url } = await open(undefined, {}, { store });
    const first = await createResponse(url);
    await createResponse(url);
    return envelope(await fetch(`${url}/v1/responses/${first}`));
  },
  chain_too_long: async () => {
    const { url, store } = await open();
    // What 10,001 chained responses leave in the store, one more link than the README's limit.
    let previous: string | null = null;
    for (let link = 0; link <= 10_000; link++) {
      const id = `resp_link${link}`;
      await store.responses.save({ id, status: 'completed', previous_response_id: previous }, []);
      previous = id;
    }
    return envelope(await post(`${url}/v1/responses`, { input: 'hi', previous_response_id: previous }));
  },
  not_background: async () => {
    const { url } = await open();
    return envelope(await post(`${url}/v1/responses/${await createResponse(url)}/cancel`, ''));
  },
  too_many_runs: async () => {
    const { url } = await open(new ScriptedAgent([{ silent: true }]), { maxConcurrentRuns: 1 });
    expect((await post(`${url}/v1/runs`, { input: 'hi' })).status).toBe(202);
    return envelope(await post(`${url}/v1/runs`, { input: 'hi' }));
  },
  upstream_unreachable: () => viaUpstream(),
  upstream_unauthorized: () => viaUpstream(jsonError(401, '{"error":{"message":"Incorrect API key"}}')),
  upstream_rate_limited: () =>
    viaUpstream({
      ...jsonError(429, '{"error":{"message":"Rate limit reached"}}'),
      headers: { 'content-type': 'application/json', 'retry-after': '7' },
    }),
  upstream_bad_status: () => viaUpstream({ status: 500, headers: { 'content-type': 'text/plain' }, steps: [{ raw: 'internal oops' }] }),
  upstream_not_sse: () => viaUpstream(jsonError(200, '{"choices":[]}')),
  upstream_malformed_frame: () => viaUpstream({ steps: [frames.text('ok'), { data: '{"choices": [' }, { stall: true }] }),
  upstream_dropped: () => viaUpstream({ steps: [frames.text('partial')] }),
  upstream_error: () =>
    viaUpstream({ steps: [frames.text('a'), { chunk: { error: { message: 'overloaded', type: 'server_error' } } }, { stall: true }] }),
  upstream_timeout: () => viaUpstream({ steps: [frames.text('a'), { stall: true }] }),
  upstream_first_token_timeout: () => viaUpstream({ steps: [frames.role(), { stall: true }] }),
  // undici times these three on a coarse clock (up to a second late): the other timeouts are set further out.
  upstream_connect_timeout: () =>
    viaUpstream('unaccepting', {
      RXGATE_UPSTREAM_CONNECT_TIMEOUT_MS: '50',
      RXGATE_UPSTREAM_FIRST_TOKEN_TIMEOUT_MS: '5000',
      RXGATE_UPSTREAM_TIMEOUT_MS: '5000',
    }),
  upstream_first_byte_timeout: () =>
    viaUpstream('silent', {
      RXGATE_UPSTREAM_FIRST_BYTE_TIMEOUT_MS: '100',
      RXGATE_UPSTREAM_FIRST_TOKEN_TIMEOUT_MS: '5000',
      RXGATE_UPSTREAM_TIMEOUT_MS: '5000',
    }),
  upstream_idle_timeout: () =>
    viaUpstream(
      { steps: [frames.text('a'), { stall: true }] },
      { RXGATE_UPSTREAM_IDLE_TIMEOUT_MS: '100', RXGATE_UPSTREAM_TIMEOUT_MS: '5000' },
    ),
  deadline_exceeded: () => pastDeadline({ totalMs: 50 }),
  first_token_timeout: () => pastDeadline({ firstTokenMs: 50 }),
  agent_error: async () => envelope(await chat((await open(new ScriptedAgent([{ fail: new AgentError('the agent broke') }]))).url)),
  internal_error: async () => envelope(await chat((await open(new ScriptedAgent([{ fail: new Error('a bug') }]))).url)),
  shutdown: async () => {
    const agent = new ManualAgent();
    const running = await startServer({ agent, config: loadConfig({ RXGATE_PORT: '0' }) });
    closers.push(() => running.shutdown(0));
    const answer = chat(running.url);
    await agent.started(0);
    await running.shutdown(0);
    return envelope(await answer);
  },
  interrupted: async () => {
    const agent = new ManualAgent();
    const running = await startServer({ agent, config: loadConfig({ RXGATE_PORT: '0' }) });
    closers.push(() => running.shutdown(0));
    const { run_id } = (await (await post(`${running.url}/v1/runs`, { input: 'hi' })).json()) as { run_id: string };
    await agent.started(0);
    const events = await fetch(`${running.url}/v1/runs/${run_id}/events`);
    await running.shutdown(0);
    for await (const event of sseEvents(events.body!)) {
      if (event.event === 'run.failed') {
        const { error } = JSON.parse(event.data) as { error: { code: string; type: string } };
        return { code: error.code, type: error.type };
      }
    }
    throw new Error('the run ended without run.failed');
  },
  too_many_followers: async () => {
    const { url } = await open(new ScriptedAgent([{ silent: true }]), { maxFollowersPerRun: 1 });
    const { run_id } = (await (await post(`${url}/v1/runs`, { input: 'hi' })).json()) as { run_id: string };
    const first = await fetch(`${url}/v1/runs/${run_id}/events`);
    expect(first.status).toBe(200);
    const second = await fetch(`${url}/v1/runs/${run_id}/events`);
    await first.body!.cancel();
    return envelope(second);
  },
  overloaded: async () => {
    const { url } = await open(undefined, { maxEventLoopDelayMs: 20 });
    blockEventLoop(100);
    return envelope(await chat(url));
  },
  store_unavailable: async () => {
    const store = failingStore(new SqliteStore({ dataDir: ':memory:' }));
    const { url } = await open(undefined, {}, { store });
    return envelope(await post(`${url}/v1/responses`, { input: 'hi' }));
  },
  server_error: async () => {
    // A process that dies with a response in progress leaves it so in the store; the next one finds it.
    const agent = new ManualAgent();
    const dead = await open(agent);
    const { id } = (await (await post(`${dead.url}/v1/responses`, { input: 'hi', background: true })).json()) as { id: string };
    await agent.started(0);
    const { url } = await open(undefined, {}, { store: dead.store });
    const response = await fetch(`${url}/v1/responses/${id}`);
    expect(response.status).toBe(200);
    const { status, error } = (await response.json()) as { status: string; error: { code: string } };
    expect(status).toBe('failed');
    return { code: error.code };
  },
};

describe('the README error-code table', () => {
  const rows = readmeCodes();

  it('lists exactly the codes that have a trigger here, once each', () => {
    const codes = rows.map((row) => row.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect([...codes].sort()).toEqual(Object.keys(TRIGGERS).sort());
  });

  it('lists every code a RequestError in src/ is made with', () => {
    const codes = requestErrorCodesInSource();
    expect(codes.size).toBeGreaterThan(10);
    expect([...codes].filter((code) => !rows.some((row) => row.code === code))).toEqual([]);
  });

  it.each(rows)('$code: the trigger receives it, with its status and type', async (row) => {
    const trigger = TRIGGERS[row.code];
    expect(trigger, `a trigger for ${row.code}`).toBeDefined();
    expect(await trigger!()).toEqual(row);
  });
});
