import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { createApp } from '../../../src/http/createApp.js';
import { finish, say, ScriptedAgent } from '../../support/scriptedAgent.js';
import { watchedLogger } from '../../support/watchedLogger.js';

// POST /v1/chat/completions and POST /v1/responses are served without Express's router
// (serveHotRoutes); the same path with a query string still goes through the router. Every
// request here is sent both ways, and both answers, log lines and metrics must be the same.

const KEY = 'sk-hot-routes-0123456789';
const AUTH = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const VOLATILE = new Set(['id', 'created', 'created_at', 'completed_at', 'time', 'pid', 'hostname', 'durationMs', 'requestId']);

const log = watchedLogger();
const app = createApp({
  agent: new ScriptedAgent([say('hot'), finish()]),
  config: { ...loadConfig({}), maxEventLoopDelayMs: 0, apiKey: KEY, maxBodyBytes: 2_000, corsOrigins: ['https://chat.example'] },
  logger: log.logger,
});
const routerHandle = vi.spyOn(app.app.router as unknown as { handle: (...args: unknown[]) => void }, 'handle');
let server: Server;
let origin: string;
let sent = 0;

beforeAll(async () => {
  await app.recovered;
  server = createServer(app.app).listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  app.jobScheduler.stop();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The `rxgate_requests_total` samples but those of `/metrics` itself. */
async function requestCounts(): Promise<string[]> {
  const metrics = await (await fetch(`${origin}/metrics`, { headers: AUTH })).text();
  return metrics.split('\n').filter((line) => line.startsWith('rxgate_requests_total{') && !line.includes('route="/metrics"'));
}

/** An SSE body with its ids and times blanked out. */
const withoutVolatileInSse = (text: string) =>
  text.replace(/(chatcmpl-|resp_|msg_)[\w-]+/g, '$1…').replace(/"created(_at)?":\d+/g, '"created$1":0');

/** What a client and the operator see of one request: status, headers, body and access-log line, ids and times left out. */
async function observe(url: string, headers: Record<string, string>, body: string) {
  const requestId = `hot-${++sent}`;
  const countedBefore = await requestCounts();
  const routedBefore = routerHandle.mock.calls.length;
  const response = await fetch(url, { method: 'POST', headers: { ...headers, 'x-request-id': requestId }, body });
  const routed = routerHandle.mock.calls.length > routedBefore;
  const text = await response.text();
  const line = await log.next((entry) => entry.msg === 'request' && entry.requestId === requestId);
  const shown = [...response.headers].filter(([name]) => name !== 'date' && name !== 'x-request-id');
  const withoutVolatile = (_key: string, value: unknown) => (VOLATILE.has(_key) ? undefined : value);
  const counted = (await requestCounts()).filter((count) => !countedBefore.includes(count));
  return {
    routed,
    status: response.status,
    headers: Object.fromEntries(shown),
    body: text.startsWith('{') ? (JSON.parse(text, withoutVolatile) as unknown) : withoutVolatileInSse(text),
    line: JSON.parse(JSON.stringify(line), withoutVolatile) as unknown,
    // The labels of the count that went up.
    counted: counted.map((count) => count.slice(0, count.lastIndexOf(' '))),
  };
}

const CASES: [string, Record<string, string>, string][] = [
  ['answers', AUTH, '{"messages":[{"role":"user","content":"hi"}],"input":"hi"}'],
  ['streams', AUTH, '{"stream":true,"messages":[{"role":"user","content":"hi"}],"input":"hi"}'],
  ['refuses a body that is not JSON', AUTH, '{"messages": ['],
  ['refuses a body over the limit', AUTH, `{"input":"${'x'.repeat(3_000)}"}`],
  ['refuses an unknown model', AUTH, '{"model":"nope","messages":[{"role":"user","content":"hi"}],"input":"hi"}'],
  ['refuses a missing key', { 'content-type': 'application/json' }, '{"messages":[{"role":"user","content":"hi"}]}'],
  ['refuses a page on another origin', { ...AUTH, origin: 'https://evil.example' }, '{"input":"hi"}'],
  [
    'answers an allowed origin with its CORS headers',
    { ...AUTH, origin: 'https://chat.example' },
    '{"messages":[{"role":"user","content":"hi"}],"input":"hi"}',
  ],
];

describe('the hot routes', () => {
  for (const path of ['/v1/chat/completions', '/v1/responses']) {
    for (const [what, headers, body] of CASES) {
      it(`${path} ${what} as Express's router does`, async () => {
        const { routed: hotRouted, ...hot } = await observe(`${origin}${path}`, headers, body);
        const { routed: viaRouterRouted, ...viaRouter } = await observe(`${origin}${path}?via=router`, headers, body);
        expect([hotRouted, viaRouterRouted]).toEqual([false, true]);
        expect(hot.counted).toHaveLength(1);
        expect(hot).toEqual(viaRouter);
      });
    }
  }
});
