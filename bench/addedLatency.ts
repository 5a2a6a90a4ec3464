import type { Agent } from 'undici';
import { chatBody } from './benchUpstream.js';
import type { BenchUpstream } from './launchUpstream.js';
import { timeOne } from './client.js';
import { median, p99 } from './stats.js';

export interface LatencyRow {
  readonly mode: 'non-streaming' | 'streaming';
  readonly target: string;
  readonly median: number;
  readonly p99: number;
  readonly addedMedian: number;
  readonly addedP99: number;
}

const MODES = ['non-streaming', 'streaming'] as const;

/**
 * Sequential requests, one at a time: each round makes one request of each mode to each target in
 * turn, so that the machine's noise falls on all of them alike. The first `warmup` rounds are not
 * counted; they cover both modes, so that every process has compiled both paths before anything
 * counts (warming one mode and measuring it, then the other, counted the second path's JIT in the
 * first one's figures).
 */
export async function measureAddedLatency(
  client: Agent,
  upstream: BenchUpstream,
  targets: readonly { name: string; origin: string }[],
  { rounds, warmup }: { rounds: number; warmup: number },
): Promise<LatencyRow[]> {
  const direct = { name: 'upstream directly', origin: upstream.baseUrl.replace(/\/v1$/, '') };
  const all = [direct, ...targets];
  const bodies = MODES.map((mode) => chatBody({ deltas: 8, everyMs: 0, text: 'Hello ' }, mode === 'streaming'));
  const samples = MODES.map(() => all.map((): number[] => []));
  for (let round = 0; round < warmup + rounds; round++) {
    for (const [m, body] of bodies.entries()) {
      // Each round starts one target further on: in a fixed order, the same target came first in
      // every round, and two copies of one build read 0.035 ms apart by their places alone.
      for (let turn = 0; turn < all.length; turn++) {
        const i = (round + turn) % all.length;
        const ms = await timeOne(client, all[i]!.origin, body);
        if (round >= warmup) samples[m]![i]!.push(ms);
      }
    }
  }
  return MODES.flatMap((mode, m) => {
    const base = samples[m]![0]!;
    return all.map((target, i) => {
      const own = samples[m]![i]!;
      return {
        mode,
        target: target.name,
        median: median(own),
        p99: p99(own),
        addedMedian: median(own) - median(base),
        addedP99: p99(own) - p99(base),
      };
    });
  });
}
