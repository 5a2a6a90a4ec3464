import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/** Codex's native binary, from its platform package (the one `@openai/codex`'s launcher starts). */
const CODEX = join(
  createRequire(import.meta.url).resolve(`@openai/codex-${process.platform}-${process.arch}/package.json`),
  '..',
  'vendor',
  'x86_64-unknown-linux-musl',
  'bin',
  'codex',
);

export interface CodexRun {
  readonly child: ChildProcess;
  /** `answer`: stdout, where `codex exec` prints the last message; `output`: stdout and stderr. */
  readonly exited: Promise<{ readonly code: number | null; readonly answer: string; readonly output: string }>;
}

export interface CodexHome {
  /** The temporary folder that is both `HOME` and `CODEX_HOME`, and the working directory. */
  readonly path: string;
  /** `codex <args>` in this home. */
  run(args: readonly string[]): CodexRun;
}

/**
 * Stock Codex pointed at rxgate: a temporary `CODEX_HOME` whose `config.toml` names rxgate as the
 * model provider (`wire_api = "responses"`, its key from `env_key`), and nothing else set. Homes
 * and children go after each test.
 */
export function useCodex() {
  const homes: string[] = [];
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
  });
  return {
    home(gatewayUrl: string, { websockets = false } = {}): CodexHome {
      const path = mkdtempSync(join(tmpdir(), 'rxgate-codex-home-'));
      homes.push(path);
      writeFileSync(
        join(path, 'config.toml'),
        [
          'model = "gpt-5.4"',
          'model_provider = "rxgate"',
          '[model_providers.rxgate]',
          'name = "rxgate"',
          `base_url = "${gatewayUrl}/v1"`,
          'wire_api = "responses"',
          'env_key = "RXGATE_KEY"',
          `supports_websockets = ${websockets}`,
          '',
        ].join('\n'),
      );
      return {
        path,
        run(args) {
          const child = spawn(CODEX, args, {
            cwd: path,
            env: { PATH: process.env.PATH, HOME: path, CODEX_HOME: path, RXGATE_KEY: 'codex-key' },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          children.push(child);
          let answer = '';
          let output = '';
          child.stdout!.on('data', (data: Buffer) => {
            answer += data.toString();
            output += data.toString();
          });
          child.stderr!.on('data', (data: Buffer) => (output += data.toString()));
          const exited = once(child, 'exit').then(([code]) => ({ code: code as number | null, answer: answer.trim(), output }));
          return { child, exited };
        },
      };
    },
  };
}
