import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRoutes } from '../../../src/upstream/loadRoutes.js';
import { UpstreamState } from '../../../src/upstream/UpstreamState.js';
import { createAgentFor } from '../../../src/createAgentFor.js';
import { loadConfig } from '../../../src/config.js';
import { ConfigError } from '../../../src/errors/ConfigError.js';
import { silentLogger } from '../../../src/logger.js';

const TIMEOUTS = { connectMs: 1, firstByteMs: 2, firstContentMs: 3, idleMs: 4 };

/** The example file, which every case below spoils in one place. */
function example(): Record<string, unknown> {
  return {
    upstreams: [
      {
        id: 'main',
        url: 'http://127.0.0.1:8000/v1',
        apiKey: 'env:MAIN_KEY',
        weight: 1,
        maxInFlight: 64,
        timeouts: { connectMs: 5000, firstByteMs: 15000, firstContentMs: 60000, idleMs: 60000 },
      },
      { id: 'backup', url: 'http://127.0.0.1:8001/v1' },
    ],
    models: [
      {
        name: 'smart',
        targets: [
          { upstream: 'main', model: 'qwen3-32b' },
          { upstream: 'backup', model: 'qwen3-32b' },
        ],
        balance: 'ordered',
        fallbacks: ['fast'],
        contextWindowFallbacks: ['long'],
      },
      { name: 'fast', targets: [{ upstream: 'backup', model: 'qwen3-4b' }] },
      { name: 'long', targets: [{ upstream: 'main', model: 'qwen3-32b-128k' }] },
    ],
    retry: { attempts: 2, baseMs: 250, capMs: 8000, maxRetryAfterMs: 30000 },
    budget: { deadlineMs: 90000, maxAttempts: 6 },
    breaker: { failures: 3, cooldownMs: 30000 },
  };
}

function write(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'rxgate-routes-')), 'routes.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

function problemOf(content: unknown, env: Record<string, string> = { MAIN_KEY: 'sk-main' }): string {
  const path = write(content);
  try {
    loadRoutes(path, env, TIMEOUTS);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(path);
    return (error as Error).message;
  }
  throw new Error('the file was accepted');
}

describe('loadRoutes', () => {
  it("reads the issue's example: secrets from their variables, defaults where the file is silent", () => {
    const routes = loadRoutes(write(example()), { MAIN_KEY: 'sk-main' }, TIMEOUTS);
    expect(routes.upstreams.get('main')).toMatchObject({ apiKey: 'sk-main', timeouts: { connectMs: 5000, idleMs: 60000 } });
    expect(routes.upstreams.get('backup')).toMatchObject({ apiKey: undefined, weight: 1, timeouts: TIMEOUTS });
    expect([...routes.models.keys()]).toEqual(['smart', 'fast', 'long']);
    expect(routes.models.get('fast')).toMatchObject({ balance: 'ordered', fallbacks: [], contextWindowFallbacks: [] });
    expect(routes.budget).toEqual({ deadlineMs: 90000, maxAttempts: 6 });
  });

  it("reads an upstream's kind, openai unless it says anthropic, and posts to the endpoint of its kind", () => {
    const file = example();
    (file.upstreams as Record<string, unknown>[])[1]!.kind = 'anthropic';
    const routes = loadRoutes(write(file), { MAIN_KEY: 'sk-main' }, TIMEOUTS);
    expect(routes.upstreams.get('main')!.kind).toBe('openai');
    expect(routes.upstreams.get('backup')!.kind).toBe('anthropic');
    const endpoint = (id: string) => new UpstreamState(routes.upstreams.get(id)!, routes.breaker, () => 0).endpoint.url;
    expect(endpoint('main')).toBe('http://127.0.0.1:8000/v1/chat/completions');
    expect(endpoint('backup')).toBe('http://127.0.0.1:8001/v1/messages');
  });

  it.each([
    ['an unknown key, named with its entry', ['upstreams', 1, 'wieght'], 2, 'upstreams[1] ("backup"): unknown key "wieght"'],
    ['an unknown key at the top', ['retries'], {}, '(the file): unknown key "retries"'],
    [
      'a target naming no upstream',
      ['models', 1, 'targets', 0, 'upstream'],
      'spare',
      'models[1] ("fast").targets[0].upstream: no upstream has the id "spare"',
    ],
    [
      'a fallback naming no model',
      ['models', 0, 'fallbacks'],
      ['quick'],
      'models[0] ("smart").fallbacks[0]: no model has the name "quick"',
    ],
    ['a cycle of fallbacks', ['models', 1, 'fallbacks'], ['smart'], 'run in a circle: smart -> fast -> smart'],
    ['a key written in the file', ['upstreams', 1, 'apiKey'], 'sk-live-123', 'upstreams[1] ("backup").apiKey: must be "env:NAME"'],
    ['an unknown kind', ['upstreams', 1, 'kind'], 'gemini', 'upstreams[1] ("backup").kind'],
    ['a bad balance', ['models', 0, 'balance'], 'random', 'models[0] ("smart").balance'],
    ['a duplicate upstream id', ['upstreams', 1, 'id'], 'main', 'upstreams[1] ("main").id: another upstream already has this id'],
    [
      'a URL without its scheme',
      ['upstreams', 1, 'url'],
      'localhost:8001/v1',
      'upstreams[1] ("backup").url: must be an http:// or https:// URL',
    ],
    [
      'a URL of another scheme',
      ['upstreams', 1, 'url'],
      'ftp://127.0.0.1/v1',
      'upstreams[1] ("backup").url: must be an http:// or https:// URL',
    ],
    [
      'a timeout longer than a timer can wait',
      ['upstreams', 0, 'timeouts', 'firstContentMs'],
      3_000_000_000,
      'upstreams[0] ("main").timeouts.firstContentMs: must be at most 2147483647',
    ],
    ['a backoff cap longer than a timer can wait', ['retry', 'capMs'], 2_147_483_648, 'retry.capMs: must be at most 2147483647'],
  ] as const)('refuses %s', (_name, path, value, message) => {
    const file = example();
    let node = file as Record<PropertyKey, unknown>;
    for (const key of path.slice(0, -1)) node = node[key] as Record<PropertyKey, unknown>;
    node[path.at(-1)!] = value;
    expect(problemOf(file)).toContain(message);
  });

  it('refuses a secret whose variable is not set, naming the variable and never a value', () => {
    expect(problemOf(example(), {})).toContain('upstreams[0] ("main").apiKey: the variable MAIN_KEY is not set');
  });

  it('refuses a file that is not JSON, or not there', () => {
    expect(problemOf('{ upstreams: ')).toContain('not JSON');
    expect(() => loadRoutes('/nonexistent/routes.json', {}, TIMEOUTS)).toThrow(
      /RXGATE_ROUTES_FILE \/nonexistent\/routes.json: cannot be read \(ENOENT\)/,
    );
  });
});

describe('the configuration', () => {
  it('without a routes file, RXGATE_UPSTREAM_* is the one route, which takes any model name', () => {
    const agent = createAgentFor(loadConfig({ RXGATE_UPSTREAM_URL: 'http://127.0.0.1:9/v1', RXGATE_UPSTREAM_MODEL: 'm' }), silentLogger);
    expect(agent.models).toEqual(['*']);
    expect(agent.description).toContain('m at default');
  });

  it('with a routes file, its route names', () => {
    const path = write({
      ...example(),
      upstreams: [
        { id: 'main', url: 'http://127.0.0.1:8000/v1' },
        { id: 'backup', url: 'http://127.0.0.1:8001/v1' },
      ],
    });
    expect(createAgentFor(loadConfig({ RXGATE_ROUTES_FILE: path }), silentLogger).models).toEqual(['smart', 'fast', 'long']);
  });

  it('refuses a routes file and RXGATE_UPSTREAM_URL together', () => {
    expect(() =>
      loadConfig({ RXGATE_ROUTES_FILE: 'routes.json', RXGATE_UPSTREAM_URL: 'http://127.0.0.1:9/v1', RXGATE_UPSTREAM_MODEL: 'm' }),
    ).toThrow(/RXGATE_ROUTES_FILE and RXGATE_UPSTREAM_URL are both set/);
  });

  it.each([
    'RXGATE_UPSTREAM_TIMEOUT_MS',
    'RXGATE_UPSTREAM_CONNECT_TIMEOUT_MS',
    'RXGATE_UPSTREAM_FIRST_BYTE_TIMEOUT_MS',
    'RXGATE_UPSTREAM_FIRST_TOKEN_TIMEOUT_MS',
    'RXGATE_UPSTREAM_IDLE_TIMEOUT_MS',
  ])('refuses %s longer than a timer can wait, naming the limit', (env) => {
    expect(() => loadConfig({ [env]: '2147483648' })).toThrow(`${env}="2147483648": must be at most 2147483647`);
    expect(() => loadConfig({ [env]: '2147483647' })).not.toThrow();
  });

  it.each([
    ['without its scheme', 'localhost:8000/v1'],
    ['of another scheme', 'ftp://127.0.0.1/v1'],
  ])('refuses an RXGATE_UPSTREAM_URL %s, saying what to write', (_name, url) => {
    expect(() => loadConfig({ RXGATE_UPSTREAM_URL: url, RXGATE_UPSTREAM_MODEL: 'm' })).toThrow(
      `RXGATE_UPSTREAM_URL="${url}": must be an http:// or https:// URL, the API root (e.g. "http://127.0.0.1:8000/v1")`,
    );
    expect(loadConfig({ RXGATE_UPSTREAM_URL: 'https://api.example.com/v1', RXGATE_UPSTREAM_MODEL: 'm' }).upstreamUrl).toBe(
      'https://api.example.com/v1',
    );
  });
});
