import { fork } from 'node:child_process';
import { once } from 'node:events';

export interface HealthProbes {
  /** Stops probing; each origin's latencies in ms, in the order given (NaN: not a 200, or no answer). */
  stop(): Promise<number[][]>;
}

/** Starts probing `GET /health` on each origin every `periodMs`, from a process of its own (`healthProber.ts`). */
export async function probeHealth(origins: readonly string[], periodMs: number): Promise<HealthProbes> {
  const child = fork(new URL('./healthProber.ts', import.meta.url), [JSON.stringify(origins), String(periodMs)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await once(child, 'message');
  return {
    async stop() {
      const reply = once(child, 'message') as Promise<[{ latencies: number[][] }]>;
      child.send('stop');
      const [{ latencies }] = await reply;
      return latencies;
    },
  };
}
