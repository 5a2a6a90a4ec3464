import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export interface CliProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** Everything the process printed on stdout and stderr so far. */
  readonly output: () => string;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
}

/**
 * Starts `node dist/cli.js` (built by the global setup) and resolves when it says it is listening;
 * `shellFirst` (e.g. `ulimit -f 512`) runs in a bash that then becomes the server. Without an
 * `RXGATE_DATA_DIR` it gets a fresh one of its own, removed when it exits, so that servers of tests
 * running side by side never share one; `cwd` runs it in that directory instead, on the default
 * data directory there.
 */
export async function startCli(
  env: Record<string, string> = {},
  args: string[] = [],
  shellFirst?: string,
  cwd?: string,
): Promise<CliProcess> {
  const argv = [resolve('dist/cli.js'), ...args];
  const [command, commandArgs] = shellFirst
    ? ['bash', ['-c', `${shellFirst} && exec "$0" "$@"`, process.execPath, ...argv]]
    : [process.execPath, argv];
  const ownDataDir = env.RXGATE_DATA_DIR === undefined && cwd === undefined ? mkdtempSync(join(tmpdir(), 'rxgate-cli-')) : undefined;
  const child = spawn(command, commandArgs, {
    env: { ...process.env, RXGATE_PORT: '0', RXGATE_LOG_LEVEL: 'warn', ...(ownDataDir ? { RXGATE_DATA_DIR: ownDataDir } : {}), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(cwd === undefined ? {} : { cwd }),
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => {
    if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
    return code as number | null;
  });
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      output += `${line}\n`;
      const match = /^rxgate listening on (\S+)$/.exec(line);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`rxgate exited with ${code} before listening:\n${output}`)));
  });
  return { child, url, output: () => output, exited };
}

/** SIGKILLs each process still running and waits for every one to exit: a test's clean-up, whatever state it left them in. */
export async function killAll(processes: readonly CliProcess[]): Promise<void> {
  for (const { child, exited } of processes) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  }
}
