import type { Agent } from 'undici';
import { chatBody } from './benchUpstream.js';
import { timeOne } from './client.js';
import { median } from './stats.js';

export type CpuMode = 'streaming' | 'non-streaming';

/** A gateway whose CPU time the bench can read. */
export interface CpuTarget {
  readonly name: string;
  readonly origin: string;
  /** What each request must carry besides its body. Default: nothing. */
  readonly headers?: Record<string, string>;
  /** The process's CPU time so far, user and system, in µs. */
  cpuMicros(): Promise<number> | number;
  /** Default: both. */
  readonly modes?: readonly CpuMode[];
}

export interface CpuPlan {
  readonly clients: number;
  /** Requests per round and target (`clients` at a time). */
  readonly requests: number;
  /** Rounds; the targets take turns round by round, and each figure is the median of its rounds. */
  readonly rounds: number;
}

export interface CpuRow {
  readonly target: string;
  readonly mode: CpuMode;
  /** The gateway process's CPU time per request, in µs: the median of the rounds. */
  readonly cpuMicrosPerRequest: number;
  readonly rounds: readonly number[];
}

/** `requests` requests, `clients` at a time, each client one after another; resolves with the target's CPU µs per request. */
async function round(client: Agent, target: CpuTarget, body: string, { clients, requests }: CpuPlan): Promise<number> {
  const before = await target.cpuMicros();
  let left = requests;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (left-- > 0) await timeOne(client, target.origin, body, target.headers);
    }),
  );
  return ((await target.cpuMicros()) - before) / requests;
}

/**
 * CPU per request (issue 26, goal 1): the gateway process's own CPU time divided by the requests
 * it answered, an 8-delta answer, `clients` clients at once, streaming and not. CPU time, unlike
 * time on the clock, does not grow when other processes take the cores (only a little, through
 * their caches), so it is the steadier figure on a shared machine.
 */
export async function measureCpuPerRequest(client: Agent, targets: readonly CpuTarget[], plan: CpuPlan): Promise<CpuRow[]> {
  const rows: CpuRow[] = [];
  for (const mode of ['streaming', 'non-streaming'] as const) {
    const body = chatBody({ deltas: 8, everyMs: 0, text: 'Hello ' }, mode === 'streaming');
    const measured = targets.filter((target) => (target.modes ?? ['streaming', 'non-streaming']).includes(mode));
    const samples = measured.map((): number[] => []);
    // One unmeasured round each: compiled code, open upstream connections.
    for (const target of measured) await round(client, target, body, plan);
    for (let r = 0; r < plan.rounds; r++) {
      for (const [i, target] of measured.entries()) samples[i]!.push(await round(client, target, body, plan));
    }
    for (const [i, target] of measured.entries()) {
      rows.push({ target: target.name, mode, cpuMicrosPerRequest: median(samples[i]!), rounds: samples[i]! });
    }
  }
  return rows;
}
