import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
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
 * `shellFirst` (e.g. `ulimit -f 512`) runs in a bash that then becomes the server.
 */
export async function startCli(env: Record<string, string> = {}, args: string[] = [], shellFirst?: string): Promise<CliProcess> {
  const argv = ['dist/cli.js', ...args];
  const [command, commandArgs] = shellFirst
    ? ['bash', ['-c', `${shellFirst} && exec "$0" "$@"`, process.execPath, ...argv]]
    : [process.execPath, argv];
  const child = spawn(command, commandArgs, {
    env: { ...process.env, RXGATE_PORT: '0', RXGATE_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
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
