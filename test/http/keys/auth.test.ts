import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { ConfigError } from '../../../src/errors/ConfigError.js';
import { assertSafeExposure } from '../../../src/http/startServer.js';
import { finish, say, ScriptedAgent } from '../../support/scriptedAgent.js';
import { startApp, type TestApp } from '../../support/startApp.js';

let app: TestApp | undefined;
afterEach(async () => app?.close());

describe('auth and exposure', () => {
  it('requires the bearer key on /v1 routes and leaves /health open', async () => {
    app = await startApp(new ScriptedAgent([say('ok'), finish()]), { apiKey: 's3cret' });
    const models = (authorization?: string) => fetch(`${app!.url}/v1/models`, { headers: authorization ? { authorization } : {} });

    for (const response of [await models(), await models('Bearer wrong'), await models('s3cret')]) {
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
    }
    const allowed = await models('Bearer s3cret');
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toEqual({
      object: 'list',
      data: [{ id: 'rxgate-agent', object: 'model', created: expect.any(Number), owned_by: 'rxgate' }],
    });
    expect((await fetch(`${app.url}/health`)).status).toBe(200);
  });

  it('refuses to bind a non-loopback address without a key, and says why', () => {
    expect(() => assertSafeExposure({ host: '0.0.0.0', apiKey: undefined })).toThrow(ConfigError);
    expect(() => assertSafeExposure({ host: '0.0.0.0', apiKey: undefined })).toThrow(/RXGATE_API_KEY/);
    expect(() => assertSafeExposure({ host: '0.0.0.0', apiKey: 'k' })).not.toThrow();
    expect(() => assertSafeExposure({ host: '127.0.0.1', apiKey: undefined })).not.toThrow();
    expect(() => assertSafeExposure({ host: '::1', apiKey: undefined })).not.toThrow();
  });

  it('answers CORS preflight only when origins are configured, exposing X-Request-Id', async () => {
    app = await startApp(new ScriptedAgent([]), { corsOrigins: ['https://chat.example'] });
    const preflight = await fetch(`${app.url}/v1/chat/completions`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://chat.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://chat.example');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    const simple = await fetch(`${app.url}/v1/models`, { headers: { origin: 'https://chat.example' } });
    expect(simple.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    await app.close();

    app = await startApp(new ScriptedAgent([]));
    const off = await fetch(`${app.url}/v1/models`, { headers: { origin: 'https://chat.example' } });
    expect(off.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('configuration', () => {
  it('has working defaults', () => {
    expect(loadConfig({})).toMatchObject({ host: '127.0.0.1', port: 8642, keepaliveMs: 10_000, modelId: 'rxgate-agent', corsOrigins: [] });
  });

  it('takes flags over environment variables', () => {
    expect(loadConfig({ RXGATE_PORT: '9000' }, ['--port', '9001', '--cors-origins=*']).port).toBe(9001);
    expect(loadConfig({}, ['--cors-origins=*']).corsOrigins).toEqual(['*']);
  });

  it('stops on bad values with a message naming each', () => {
    expect(() => loadConfig({ RXGATE_PORT: 'abc', RXGATE_KEEPALIVE_MS: '-1' })).toThrow(/RXGATE_PORT="abc"[\s\S]*RXGATE_KEEPALIVE_MS="-1"/);
    expect(() => loadConfig({}, ['--bogus', '1'])).toThrow(/unknown option --bogus/);
    expect(() => loadConfig({ RXGATE_UPSTREAM_URL: 'http://127.0.0.1:1/v1' })).toThrow(/RXGATE_UPSTREAM_MODEL is required/);
  });

  // Node.js fires a timer set longer than 2147483647 ms after 1 ms: the wait would end at once.
  it.each([
    ['RXGATE_APPROVAL_TIMEOUT_MS', 2_147_483_647],
    ['RXGATE_KEEPALIVE_MS', 2_147_483_647],
    ['RXGATE_SHUTDOWN_GRACE_MS', 2_147_483_647],
    ['RXGATE_JOBS_REFRESH_MS', 2_147_483_647],
    // A stop waits up to twice the lease.
    ['RXGATE_REDIS_LEASE_MS', 1_073_741_823],
  ])('refuses %s longer than a timer can wait, naming the limit', (env, limit) => {
    expect(() => loadConfig({ [env]: String(limit + 1) })).toThrow(`${env}="${limit + 1}": must be at most ${limit}`);
    expect(() => loadConfig({ [env]: String(limit) })).not.toThrow();
  });
});
