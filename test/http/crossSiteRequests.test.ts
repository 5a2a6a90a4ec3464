import { afterEach, describe, expect, it } from 'vitest';
import { finish, say, ScriptedAgent } from '../support/scriptedAgent.js';
import { startApp, type TestApp } from '../support/startApp.js';

// Any web page can POST a text/plain body without a CORS preflight. Such a request is refused
// unless its origin is allowed; clients that are not browsers send no Origin and pass.

const CHAT = '{"messages":[{"role":"user","content":"spend the key"}]}';
const INPUT = '{"input":"spend the key"}';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** What `fetch(url, {method: 'POST', body})` from a page at `origin` sends: a CORS-simple request. */
function postFrom(url: string, headers: Record<string, string>, body = CHAT): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain;charset=UTF-8', ...headers }, body });
}

async function expectRefused(response: Response): Promise<void> {
  expect(response.status).toBe(403);
  expect(await response.json()).toEqual({
    error: {
      message: expect.stringContaining('RXGATE_CORS_ORIGINS'),
      type: 'invalid_request_error',
      param: null,
      code: 'origin_not_allowed',
    },
  });
}

describe('cross-site requests', () => {
  it('a page on another origin is refused with 403 on chat completions and runs, and the agent never runs', async () => {
    const agent = new ScriptedAgent([say('ok'), finish()]);
    app = await startApp(agent);
    const page = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' };
    await expectRefused(await postFrom(`${app.url}/v1/chat/completions`, page));
    await expectRefused(await postFrom(`${app.url}/v1/runs`, page, INPUT));
    await expectRefused(await postFrom(`${app.url}/v1/responses`, page, INPUT));
    expect(agent.runs).toHaveLength(0);
  });

  it('Sec-Fetch-Site: cross-site without an Origin is refused too', async () => {
    const agent = new ScriptedAgent([say('ok'), finish()]);
    app = await startApp(agent);
    await expectRefused(await fetch(`${app.url}/v1/models`, { headers: { 'sec-fetch-site': 'cross-site' } }));
    expect(agent.runs).toHaveLength(0);
  });

  it('an allowed origin passes, with its CORS headers', async () => {
    app = await startApp(new ScriptedAgent([say('ok'), finish()]), { corsOrigins: ['https://chat.example'] });
    const response = await postFrom(`${app.url}/v1/chat/completions`, { origin: 'https://chat.example', 'sec-fetch-site': 'cross-site' });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://chat.example');
    expect(await response.json()).toMatchObject({ choices: [{ message: { content: 'ok' } }] });
    await expectRefused(await postFrom(`${app.url}/v1/chat/completions`, { origin: 'https://other.example' }));
  });

  it('`*` allows every origin', async () => {
    app = await startApp(new ScriptedAgent([say('ok'), finish()]), { corsOrigins: ['*'] });
    const response = await postFrom(`${app.url}/v1/chat/completions`, { origin: 'https://anyone.example', 'sec-fetch-site': 'cross-site' });
    expect(response.status).toBe(200);
  });

  it('a request with no Origin (curl, the SDKs) passes, as does a same-origin one', async () => {
    app = await startApp(new ScriptedAgent([say('ok'), finish()]));
    const curl = await postFrom(`${app.url}/v1/chat/completions`, {});
    expect(curl.status).toBe(200);
    expect(await curl.json()).toMatchObject({ choices: [{ message: { content: 'ok' } }] });
    const run = await postFrom(`${app.url}/v1/runs`, {}, INPUT);
    expect(run.status).toBe(202);
    const sameOrigin = await postFrom(`${app.url}/v1/chat/completions`, { origin: app.url, 'sec-fetch-site': 'same-origin' });
    expect(sameOrigin.status).toBe(200);
  });
});
