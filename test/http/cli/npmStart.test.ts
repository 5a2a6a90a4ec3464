import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';

// `npm start` as a person or a process manager runs it: stopping npm must stop the server.

/** Every process below `pid`, from `ps`. */
function descendantsOf(pid: number): number[] {
  const table = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  for (let parents = [pid]; parents.length > 0;) {
    parents = table.filter(([, parent]) => parents.includes(parent)).map(([child]) => child);
    found.push(...parents);
  }
  return found;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

let dataDir: string | undefined;
let started: ChildProcess | undefined;
let leftovers: number[] = [];
afterEach(() => {
  // Whatever a failed run left behind was started by this test.
  const npm = started?.exitCode === null && started.signalCode === null ? [started.pid!] : [];
  for (const pid of [...npm.flatMap(descendantsOf), ...leftovers, ...npm].filter(isAlive)) process.kill(pid, 'SIGKILL');
  started = undefined;
  leftovers = [];
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

/** Starts `npm start <args>` and resolves with the URL it says it listens on. */
async function npmStart(
  args: readonly string[],
): Promise<{ npm: ChildProcess; url: string; exited: Promise<[number | null, NodeJS.Signals | null]> }> {
  const npm = spawn('npm', ['start', ...args], {
    env: { ...process.env, RXGATE_LOG_LEVEL: 'warn', RXGATE_PORT: '8642' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started = npm;
  const exited = once(npm, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  let output = '';
  npm.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: npm.stdout! }).on('line', (line) => {
      output += `${line}\n`;
      const match = /^rxgate listening on (\S+)$/.exec(line);
      if (match) resolve(match[1]!);
    });
    void exited.then(([code]) => reject(new Error(`npm start exited with ${code} before listening:\n${output}`)));
  });
  return { npm, url, exited };
}

describe('npm start', () => {
  it('passes flags through to the server, and SIGTERM to npm stops the server too', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rxgate-npm-start-'));
    // --ignore-scripts skips prestart (the build): dist/ is built once for all tests, and rebuilding
    // it here would rewrite files that other test files are starting the server from.
    const { npm, url, exited } = await npmStart(['--ignore-scripts', '--', '--port', '0', '--data-dir', dataDir]);
    expect((await fetch(`${url}/health`)).status).toBe(200);
    const below = descendantsOf(npm.pid!);
    leftovers = below;
    expect(below.length).toBeGreaterThan(0);

    npm.kill('SIGTERM');
    await exited;

    expect(below.filter(isAlive)).toEqual([]);
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  }, 120_000);

  it('builds first', () => {
    const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.prestart).toBe('npm run build');
  });
});
