import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { finish, say, ScriptedAgent } from '../support/scriptedAgent.js';
import { startApp, type TestApp } from '../support/startApp.js';
import { as, teamKeys } from '../support/teamKeys.js';

// A page on evil.example points its own name at 127.0.0.1 and calls the server as its own origin:
// the browser sends `Host: evil.example:<port>`, `Origin: http://evil.example:<port>` and
// `Sec-Fetch-Site: same-origin`. Only the Host tells the server what happened.

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

interface Answer {
  readonly status: number;
  readonly body: string;
}

/** A request with the `Host` header given, which fetch does not let a caller set. */
function send(url: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, headers: { 'content-type': 'text/plain;charset=UTF-8', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const portOf = (url: string) => new URL(url).port;

/** What the rebound page's `fetch` sends. */
const rebound = (url: string) => ({
  host: `evil.example:${portOf(url)}`,
  origin: `http://evil.example:${portOf(url)}`,
  'sec-fetch-site': 'same-origin',
  'sec-fetch-mode': 'cors',
});

function expectRefused(answer: Answer, name = 'evil.example'): void {
  expect(answer.status).toBe(403);
  expect(JSON.parse(answer.body)).toEqual({
    error: {
      message: `rxgate: this server does not answer to the host name '${name}'; list it in RXGATE_ALLOWED_HOSTS to allow it`,
      type: 'invalid_request_error',
      param: null,
      code: 'host_not_allowed',
    },
  });
}

describe('a Host the server does not answer to', () => {
  it('is refused on a keyless server before any route: chat, a run, a job, the runs list; the agent never runs', async () => {
    const agent = new ScriptedAgent([say('ok'), finish()]);
    app = await startApp(agent);
    const page = rebound(app.url);
    expectRefused(await send(app.url, 'POST', '/v1/chat/completions', page, '{"messages":[{"role":"user","content":"spend the key"}]}'));
    expectRefused(await send(app.url, 'POST', '/v1/runs', page, '{"input":"spend the key"}'));
    expectRefused(await send(app.url, 'POST', '/api/jobs', page, '{"name":"n","schedule":"every 1h","input":"spend the key"}'));
    expectRefused(await send(app.url, 'GET', '/v1/runs', page));
    expectRefused(await send(app.url, 'GET', '/', page));
    expect(agent.runs).toHaveLength(0);
  });

  it('passes for loopback names and IP addresses, with or without a port', async () => {
    app = await startApp(new ScriptedAgent([]));
    const port = portOf(app.url);
    for (const host of [
      `localhost:${port}`,
      'LOCALHOST',
      `console.localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      '10.0.0.7',
      'localhost.',
    ]) {
      expect((await send(app.url, 'GET', '/v1/models', { host })).status, host).toBe(200);
    }
    expectRefused(await send(app.url, 'GET', '/v1/models', { host: 'localhost.evil.example' }), 'localhost.evil.example');
  });

  it('passes for the names in RXGATE_ALLOWED_HOSTS, and for any with `*`', async () => {
    app = await startApp(new ScriptedAgent([]), { allowedHosts: ['rxgate', 'Gateway.Team.Example'] });
    expect((await send(app.url, 'GET', '/v1/models', { host: `rxgate:${portOf(app.url)}` })).status).toBe(200);
    expect((await send(app.url, 'GET', '/v1/models', { host: 'gateway.team.example' })).status).toBe(200);
    expectRefused(await send(app.url, 'GET', '/v1/models', rebound(app.url)));
    await app.close();
    app = await startApp(new ScriptedAgent([]), { allowedHosts: ['*'] });
    expect((await send(app.url, 'GET', '/v1/models', rebound(app.url))).status).toBe(200);
  });

  it('with keys, is checked only when RXGATE_ALLOWED_HOSTS is set: the key is the guard a rebound page cannot send', async () => {
    app = await startApp(new ScriptedAgent([]), {}, { keys: () => teamKeys() });
    expect((await send(app.url, 'GET', '/v1/models', { ...rebound(app.url), ...as('team-a') })).status).toBe(200);
    await app.close();
    app = await startApp(new ScriptedAgent([]), { allowedHosts: ['gateway.team.example'] }, { keys: () => teamKeys() });
    expectRefused(await send(app.url, 'GET', '/v1/models', { ...rebound(app.url), ...as('team-a') }));
    expect((await send(app.url, 'GET', '/v1/models', { host: 'gateway.team.example', ...as('team-a') })).status).toBe(200);
  });
});
