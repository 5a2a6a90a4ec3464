import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { CONSOLE_CSP } from '../../../src/http/consoleRoutes.js';
import { ManualAgent } from '../../support/manualAgent.js';
import { startApp, type TestApp } from '../../support/startApp.js';
import { watchedLogger } from '../../support/watchedLogger.js';

const KEY = 'console-test-key-0123456789';
let app: TestApp | undefined;

afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function start(apiKey?: string) {
  app = await startApp(new ManualAgent(), { apiKey });
  return app.url;
}

describe('GET /console', () => {
  it('serves the page under a strict Content-Security-Policy, its scripts from files of its own', async () => {
    const url = await start();
    const response = await fetch(`${url}/console`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).toMatch(/^default-src 'self'; script-src 'self';/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await response.text();
    expect([...html.matchAll(/<script[^>]*>/g)].map(([tag]) => tag)).toEqual(['<script type="module" src="/console/main.js">']);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('serves every file of the page itself, with the same policy', async () => {
    const url = await start();
    for (const file of readdirSync(new URL('../../../console/', import.meta.url))) {
      const response = await fetch(`${url}/console/${file}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get('content-security-policy'), file).toBe(CONSOLE_CSP);
    }
    expect((await fetch(`${url}/console/main.js`)).headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await fetch(`${url}/console/missing.js`)).status).toBe(404);
  });

  it('is open without the key, and tells the page whether /v1 wants one', async () => {
    const url = await start(KEY);
    expect((await fetch(`${url}/console`)).status).toBe(200);
    expect(await (await fetch(`${url}/console/settings.json`)).json()).toEqual({ key_required: true });
    expect((await fetch(`${url}/v1/models`)).status).toBe(401);
    await app!.close();
    const open = await start();
    expect(await (await fetch(`${open}/console/settings.json`)).json()).toEqual({ key_required: false });
  });
});

describe('GET /', () => {
  it('sends a browser to the console', async () => {
    const url = await start();
    const response = await fetch(`${url}/`, {
      redirect: 'manual',
      headers: { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/console');
  });

  it('keeps its 404 for an API client', async () => {
    const url = await start();
    for (const accept of ['*/*', 'application/json', undefined]) {
      const response = await fetch(`${url}/`, { redirect: 'manual', headers: accept ? { Accept: accept } : {} });
      expect(response.status, accept).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unknown_url');
    }
  });

  it('writes one access-log line for each request it answers, and leaves what it passes on to whatever answers it', async () => {
    const log = watchedLogger();
    app = await startApp(new ManualAgent(), {}, { logger: log.logger });
    const asked = [
      ['/', { Accept: 'text/html' }, 302],
      ['/console', {}, 200],
      ['/console/main.js', {}, 200],
      ['/console/settings.json', {}, 200],
      ['/console/no-such-file.js', {}, 404],
      ['/', { Accept: 'application/json' }, 404],
    ] as const;
    for (const [path, headers, status] of asked) {
      const response = await fetch(`${app.url}${path}`, { redirect: 'manual', headers });
      await response.arrayBuffer();
      expect(response.status, path).toBe(status);
    }
    await expect
      .poll(() => log.lines.filter((line) => line.msg === 'request').map((line) => [line.path, line.status]))
      .toEqual(asked.map(([path, , status]) => [path, status]));
  });
});
