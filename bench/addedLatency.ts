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

/**
 * Sequential requests, the targets interleaved request by request so that the machine's noise
 * falls on all of them alike; the first `warmup` rounds are not counted.
 */
export async function measureAddedLatency(
  client: Agent,
  upstream: BenchUpstream,
  targets: readonly { name: string; origin: string }[],
  { rounds, warmup }: { rounds: number; warmup: number },
): Promise<LatencyRow[]> {
  const rows: LatencyRow[] = [];
  const direct = { name: 'upstream directly', origin: upstream.baseUrl.replace(/\/v1$/, '') };
  for (const mode of ['non-streaming', 'streaming'] as const) {
    const body = chatBody({ deltas: 8, everyMs: 0, text: 'Hello ' }, mode === 'streaming');
    const all = [direct, ...targets];
    const samples = all.map((): number[] => []);
    for (let round = 0; round < warmup + rounds; round++) {
      for (const [i, target] of all.entries()) {
        const ms = await timeOne(client, target.origin, body);
        if (round >= warmup) samples[i]!.push(ms);
      }
    }
    const base = samples[0]!;
    for (const [i, target] of all.entries()) {
      const own = samples[i]!;
      rows.push({
        mode,
        target: target.name,
        median: median(own),
        p99: p99(own),
        addedMedian: median(own) - median(base),
        addedP99: p99(own) - p99(base),
      });
    }
  }
  return rows;
}
