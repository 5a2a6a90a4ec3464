import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { pathToFileURL } from 'node:url';
import { buildGateway, COMPILED_GATEWAY, COMPILED_PHASE_PROBE } from './buildGateway.js';
import type { GatewayKind, GatewayMessage, GatewayStats } from './gateway.js';

export interface Gateway {
  readonly kind: GatewayKind;
  readonly origin: string;
  /** rxgate's health listener, when its settings ask for one (`RXGATE_HEALTH_PORT`). */
  readonly healthOrigin: string | undefined;
  readonly child: ChildProcess;
  stats(options?: { gc?: boolean; resetDelay?: boolean; heapSnapshot?: string }): Promise<GatewayStats>;
  stop(): Promise<void>;
}

export interface LaunchOptions {
  /** A command that runs Node under it (`['valgrind', '--tool=callgrind']`, say): the process is that command's. Default: none. */
  readonly under?: readonly string[];
  /** The compiled gateway process to run (`buildGatewayAt`'s, say). Default: the working tree's, built first (`buildGateway`). */
  readonly gateway?: string;
}

/**
 * Starts the thing under test in its own Node process (with `--expose-gc`), so the load generator
 * does not share its event loop; compiled with `tsc` first (`buildGateway`), as the product ships.
 * `settings` are `RXGATE_*` variables for rxgate (a store setting makes it open that store).
 */
export async function launchGateway(
  kind: GatewayKind,
  upstreamUrl: string,
  settings: Record<string, string> = {},
  { under = [], gateway }: LaunchOptions = {},
): Promise<Gateway> {
  const phases = process.env.BENCH_PHASES === '1';
  // The probe is the working tree's, whichever build runs.
  if (gateway === undefined || phases) await buildGateway();
  const nodeArgs = [
    '--expose-gc',
    ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`, '--cpu-prof-interval=50'] : []),
    ...(phases ? ['--import', pathToFileURL(COMPILED_PHASE_PROBE).href] : []),
  ];
  const [command, ...commandArgs] = under;
  const child = fork(gateway ?? COMPILED_GATEWAY, [kind, upstreamUrl, JSON.stringify(settings)], {
    ...(command === undefined ? { execArgv: nodeArgs } : { execPath: command, execArgv: [...commandArgs, process.execPath, ...nodeArgs] }),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [ready] = (await once(child, 'message')) as [{ type: 'ready'; port: number; healthUrl?: string }];
  let seq = 0;
  return {
    kind,
    origin: `http://127.0.0.1:${ready.port}`,
    healthOrigin: ready.healthUrl,
    child,
    stats(options = {}) {
      const message: GatewayMessage = { type: 'stats', seq: ++seq, ...options };
      return new Promise((resolve) => {
        const onMessage = (reply: { type: string; seq: number; stats: GatewayStats }) => {
          if (reply.type !== 'stats' || reply.seq !== message.seq) return;
          child.off('message', onMessage);
          resolve(reply.stats);
        };
        child.on('message', onMessage);
        child.send(message);
      });
    },
    async stop() {
      const exited = once(child, 'exit');
      child.kill('SIGINT');
      await exited;
    },
  };
}
