import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

export interface Portkey {
  readonly origin: string;
  /** What every request must carry for Portkey to relay it to the bench upstream as an OpenAI-compatible provider. */
  readonly headers: Record<string, string>;
  /** The process's CPU time (user and system) from `/proc/<pid>/stat`, in µs (the kernel counts it in ticks: 10 ms here). */
  cpuMicros(): number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The Portkey AI gateway (npm `@portkey-ai/gateway`, its own `start-server.js`, headless) in its
 * own process, pointed at the bench upstream with `x-portkey-custom-host`. Non-streaming only: its
 * streaming path throws on Node 20.
 */
export async function launchPortkey(upstreamBaseUrl: string): Promise<Portkey> {
  const port = await freePort();
  const script = createRequire(import.meta.url).resolve('@portkey-ai/gateway/build/start-server.js');
  const child = spawn(process.execPath, [script, `--port=${port}`, '--headless'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let said = '';
  child.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()));
  while (!said.includes('Ready for connections')) await once(child.stdout, 'data');
  const ticksPerSecond = 100;
  return {
    origin: `http://127.0.0.1:${port}`,
    headers: { 'x-portkey-provider': 'openai', 'x-portkey-custom-host': upstreamBaseUrl, authorization: 'Bearer bench' },
    cpuMicros() {
      // Fields 14 and 15 (utime, stime), counted after the command name in parentheses.
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond) * 1e6;
    },
    async stop() {
      const exited = once(child, 'exit');
      child.kill('SIGINT');
      await exited;
    },
  };
}
