import { mkdtempSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { watchKeysFile } from '../../../../src/http/keys/watchKeysFile.js';
import { sha256 } from '../../../../src/http/keys/resolveKey.js';
import { silentLogger } from '../../../../src/logger.js';

const entry = (id: string) => ({ id, sha256: sha256(`sk-${id}`).toString('hex') });
const keysJson = (...ids: string[]) => JSON.stringify({ keys: ids.map(entry) });
const hasKey = (keys: ReadonlyMap<string, unknown>, id: string) => keys.has(sha256(`sk-${id}`).toString('hex'));

let root: string | undefined;
afterEach(() => root && rmSync(root, { recursive: true, force: true }));

/** Kubernetes' atomic writer: a timestamped folder, `..data` pointing at it, each file a link through `..data`. */
it('reloads a keys file mounted as Kubernetes mounts a secret when ..data is swapped atomically', async () => {
  root = mkdtempSync(join(tmpdir(), 'rxgate-k8s-keys-'));
  const first = join(root, '..2026_12_07_05_00_00.1');
  mkdirSync(first);
  writeFileSync(join(first, 'keys.json'), keysJson('alice', 'bob'));
  symlinkSync('..2026_12_07_05_00_00.1', join(root, '..data'));
  symlinkSync('..data/keys.json', join(root, 'keys.json'));
  const watched = watchKeysFile(join(root, 'keys.json'), silentLogger);
  try {
    expect(hasKey(watched.current(), 'bob')).toBe(true);

    const second = join(root, '..2026_12_07_05_10_00.2');
    mkdirSync(second);
    writeFileSync(join(second, 'keys.json'), keysJson('alice'));
    symlinkSync('..2026_12_07_05_10_00.2', join(root, '..data_tmp'));
    renameSync(join(root, '..data_tmp'), join(root, '..data'));
    rmSync(first, { recursive: true });

    await vi.waitFor(() => expect(hasKey(watched.current(), 'bob')).toBe(false), { timeout: 3_000, interval: 20 });
    expect(hasKey(watched.current(), 'alice')).toBe(true);
  } finally {
    watched.close();
  }
});

it('reloads a keys file that is a symlink to a file in another folder when that file is replaced', async () => {
  root = mkdtempSync(join(tmpdir(), 'rxgate-linked-keys-'));
  mkdirSync(join(root, 'mount'));
  mkdirSync(join(root, 'elsewhere'));
  writeFileSync(join(root, 'elsewhere', 'keys.json'), keysJson('alice', 'bob'));
  symlinkSync(join(root, 'elsewhere', 'keys.json'), join(root, 'mount', 'keys.json'));
  const watched = watchKeysFile(join(root, 'mount', 'keys.json'), silentLogger);
  try {
    writeFileSync(join(root, 'elsewhere', 'keys.json.tmp'), keysJson('alice'));
    renameSync(join(root, 'elsewhere', 'keys.json.tmp'), join(root, 'elsewhere', 'keys.json'));
    await vi.waitFor(() => expect(hasKey(watched.current(), 'bob')).toBe(false), { timeout: 3_000, interval: 20 });
  } finally {
    watched.close();
  }
});

it('does not reload when a ..data swap leaves the keys file as it was, and reloads once when it changes', async () => {
  root = mkdtempSync(join(tmpdir(), 'rxgate-k8s-same-keys-'));
  const swapTo = (folder: string, json: string) => {
    mkdirSync(join(root!, folder));
    writeFileSync(join(root!, folder, 'keys.json'), json);
    symlinkSync(folder, join(root!, '..data_tmp'));
    renameSync(join(root!, '..data_tmp'), join(root!, '..data'));
  };
  mkdirSync(join(root, '..1'));
  writeFileSync(join(root, '..1', 'keys.json'), keysJson('alice', 'bob'));
  symlinkSync('..1', join(root, '..data'));
  symlinkSync('..data/keys.json', join(root, 'keys.json'));
  const info = vi.fn();
  const logger = { ...silentLogger, info, error: vi.fn() } as unknown as typeof silentLogger;
  const watched = watchKeysFile(join(root, 'keys.json'), logger);
  try {
    const before = watched.current();
    swapTo('..2', keysJson('alice', 'bob'));
    rmSync(join(root, '..1'), { recursive: true });
    // The unchanged swap's events come before the changed one's: once that is read, they were all handled.
    swapTo('..3', keysJson('alice'));
    await vi.waitFor(() => expect(hasKey(watched.current(), 'bob')).toBe(false), { timeout: 3_000, interval: 20 });
    expect(before).not.toBe(watched.current());
    expect(info.mock.calls.filter(([, message]) => message === 'keys file reloaded')).toHaveLength(1);
  } finally {
    watched.close();
  }
});
