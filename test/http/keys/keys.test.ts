import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { ConfigError } from '../../../src/errors/ConfigError.js';
import { keysCommand } from '../../../src/http/keys/keysCommand.js';
import { parseKeysFile } from '../../../src/http/keys/keysFile.js';
import { startServer, type RunningServer } from '../../../src/http/startServer.js';
import { captureLogger } from '../../support/captureLogger.js';
import { ScriptedAgent } from '../../support/scriptedAgent.js';
import { entryOf } from '../../support/teamKeys.js';

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.shutdown(0);
  running = undefined;
});

const keysFileIn = () => join(mkdtempSync(join(tmpdir(), 'rxgate-keys-')), 'keys.json');

/** The key `rxgate keys new` printed (its first line). */
const made = (printed: string): string => printed.split('\n')[0]!;

async function serve(keysFile: string, env: Record<string, string> = {}) {
  const { logger, lines, text } = captureLogger();
  running = await startServer({
    agent: new ScriptedAgent([]),
    config: loadConfig({ RXGATE_PORT: '0', RXGATE_KEYS_FILE: keysFile, ...env }),
    logger,
  });
  const models = (authorization?: string) =>
    fetch(`${running!.url}/v1/models`, { headers: authorization === undefined ? {} : { authorization } });
  return { models, lines, text };
}

describe('the keys file', () => {
  it('refuses, naming where, anything but digests with known fields, and ids or digests twice', () => {
    const good = entryOf('team-a');
    const problems = [
      { keys: [{ ...good, key: 'rxg_plain' }] },
      { keys: [{ ...good, sha256: 'rxg_not_a_digest' }] },
      { keys: [good, { ...entryOf('team-b'), id: 'team-a' }] },
      { keys: [good, { ...good, id: 'team-b' }] },
      { keys: [{ ...good, rpm: 0 }] },
      { keys: [{ ...good, expiresAt: 'next year' }] },
      { key: [] },
    ];
    for (const file of problems) expect(() => parseKeysFile(JSON.stringify(file), 'keys.json'), JSON.stringify(file)).toThrow(ConfigError);
    expect(() => parseKeysFile('{', 'keys.json')).toThrow(/keys\.json: not valid JSON/);
    expect(parseKeysFile(JSON.stringify({ keys: [{ ...good, sha256: good.sha256.toUpperCase() }] }), 'k')).toEqual([good]);
  });

  it("refuses a key named 'default' that is not an admin, saying why: it would own what was stored before keys and RXGATE_API_KEY's items", () => {
    const refused = () =>
      parseKeysFile(JSON.stringify({ keys: [entryOf('team-a'), entryOf('default', { models: ['smart'] })] }), 'keys.json');
    expect(refused).toThrow(ConfigError);
    expect(refused).toThrow(/keys\.1\.id: 'default' owns what was stored before keys and RXGATE_API_KEY's items/);
    expect(refused).toThrow(/another id/);
    const admin = entryOf('default', { admin: true });
    expect(parseKeysFile(JSON.stringify({ keys: [admin] }), 'keys.json')).toEqual([admin]);

    const file = keysFileIn();
    expect(() => keysCommand(['new', '--id', 'default'], { RXGATE_KEYS_FILE: file })).toThrow(/'default' owns/);
    expect(keysCommand(['list'], { RXGATE_KEYS_FILE: file })).toBe('');
  });

  it('makes keys with `keys new` (shown once, only the digest kept), lists policies without digests, and revokes', () => {
    const file = keysFileIn();
    const env = { RXGATE_KEYS_FILE: file };
    const key = made(
      keysCommand(
        ['new', '--id', 'team-a', '--models', 'smart,fast', '--rpm', '120', '--max-streams', '8', '--expires', '2027-06-30'],
        env,
      ),
    );
    expect(key).toMatch(/^rxg_[\w-]{43}$/);
    made(keysCommand(['new', '--id', 'ops', '--admin'], env));
    const stored = readFileSync(file, 'utf8');
    expect(stored).not.toContain(key);
    expect(parseKeysFile(stored, file)[0]).toEqual({
      id: 'team-a',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      models: ['smart', 'fast'],
      rpm: 120,
      maxStreams: 8,
      expiresAt: '2027-06-30',
    });
    const listed = keysCommand(['list'], env);
    expect(listed).toBe('team-a\tmodels=smart,fast\trpm=120\tmax-streams=8\texpires=2027-06-30\nops\tadmin\n');
    expect(() => keysCommand(['new', '--id', 'ops'], env)).toThrow(/'ops' is the id of an earlier key/);
    expect(() => keysCommand(['new', '--id', 'x', '--rpm', 'many'], env)).toThrow(/--rpm must be a positive whole number/);
    expect(keysCommand(['revoke', 'team-a'], env)).toBe("key 'team-a' revoked\n");
    expect(keysCommand(['list'], env)).toBe('ops\tadmin\n');
    expect(() => keysCommand(['revoke', 'team-a'], env)).toThrow(/no key 'team-a'/);
  });
});

describe('authentication with keys', () => {
  it("answers a missing, malformed, unknown, expired or revoked key with one identical 401, and logs only a good key's id", async () => {
    const file = keysFileIn();
    const env = { RXGATE_KEYS_FILE: file };
    const teamA = made(keysCommand(['new', '--id', 'team-a'], env));
    const late = made(keysCommand(['new', '--id', 'late', '--expires', '2020-01-01T00:00:00Z'], env));
    const revoked = made(keysCommand(['new', '--id', 'gone'], env));
    const { models, lines, text } = await serve(file);

    const good = await models(`Bearer ${teamA}`);
    expect(good.status).toBe(200);
    keysCommand(['revoke', 'gone'], env);
    await expect.poll(async () => (await models(`Bearer ${revoked}`)).status).toBe(401);

    const refused = [undefined, teamA, `Basic ${teamA}`, 'Bearer ', `Bearer ${teamA}x`, `Bearer ${late}`, `Bearer ${revoked}`];
    const answers = await Promise.all(
      refused.map(async (authorization) => {
        const response = await models(authorization);
        return { status: response.status, body: await response.text() };
      }),
    );
    expect(new Set(answers.map((answer) => JSON.stringify(answer)))).toEqual(
      new Set([
        JSON.stringify({
          status: 401,
          body: JSON.stringify({
            error: {
              message: 'rxgate: invalid or missing API key; send Authorization: Bearer <key>',
              type: 'invalid_request_error',
              param: null,
              code: 'invalid_api_key',
            },
          }),
        }),
      ]),
    );
    await expect.poll(() => lines.filter((line) => line.msg === 'request').length).toBeGreaterThanOrEqual(refused.length + 2);
    const requests = lines.filter((line) => line.msg === 'request');
    expect(requests.filter((line) => line.status === 200).map((line) => line.key)).toEqual(['team-a']);
    expect(requests.filter((line) => line.status === 401).every((line) => !('key' in line))).toBe(true);
    for (const secret of [teamA, late, revoked]) expect(text()).not.toContain(secret);
  });

  it('takes a key added to the file from the next request on, keeps the last good keys through a broken edit, and keeps RXGATE_API_KEY as default', async () => {
    const file = keysFileIn();
    writeFileSync(file, JSON.stringify({ keys: [] }));
    const { models, lines } = await serve(file, { RXGATE_API_KEY: 'the-default-admin-key' });
    expect((await models('Bearer the-default-admin-key')).status).toBe(200);

    const added = made(keysCommand(['new', '--id', 'team-b'], { RXGATE_KEYS_FILE: file }));
    await expect.poll(async () => (await models(`Bearer ${added}`)).status).toBe(200);
    writeFileSync(file, '{"keys": [');
    await expect.poll(() => lines.some((line) => line.msg === 'keys file not reloaded; what it said before stays in force')).toBe(true);
    expect((await models(`Bearer ${added}`)).status).toBe(200);
    expect((await models('Bearer the-default-admin-key')).status).toBe(200);
  });
});
