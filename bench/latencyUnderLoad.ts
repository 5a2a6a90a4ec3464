import type { Agent } from 'undici';
import { chatBody } from './benchUpstream.js';
import type { BenchUpstream } from './launchUpstream.js';
import { timeOne } from './client.js';
import { median, p99 } from './stats.js';

export interface LoadedLatencyRow {
  readonly clients: number;
  readonly target: string;
  readonly samples: number;
  readonly median: number;
  readonly p99: number;
  /** Against the upstream reached directly at the same concurrency, in the same run. */
  readonly addedMedian: number;
  readonly addedP99: number;
}

/**
 * Streaming latency (request to `[DONE]` of an 8-delta answer) with `clients` clients at once,
 * each making its requests one after another. The targets take turns batch by batch (one batch:
 * every client makes one request), so the machine's drift falls on all alike.
 */
export async function measureLatencyUnderLoad(
  client: Agent,
  upstream: BenchUpstream,
  targets: readonly { name: string; origin: string }[],
  { levels, requests, warmup }: { levels: readonly number[]; requests: number; warmup: number },
): Promise<LoadedLatencyRow[]> {
  const rows: LoadedLatencyRow[] = [];
  const direct = { name: 'upstream directly', origin: upstream.baseUrl.replace(/\/v1$/, '') };
  const all = [direct, ...targets];
  const body = chatBody({ deltas: 8, everyMs: 0, text: 'Hello ' }, true);
  for (const clients of levels) {
    const samples = all.map((): number[] => []);
    const batches = Math.max(1, Math.ceil(requests / clients));
    const skip = Math.ceil(warmup / clients);
    for (let batch = 0; batch < skip + batches; batch++) {
      for (const [i, target] of all.entries()) {
        const times = await Promise.all(Array.from({ length: clients }, () => timeOne(client, target.origin, body)));
        if (batch >= skip) samples[i]!.push(...times);
      }
    }
    const base = samples[0]!;
    for (const [i, target] of all.entries()) {
      const own = samples[i]!;
      rows.push({
        clients,
        target: target.name,
        samples: own.length,
        median: median(own),
        p99: p99(own),
        addedMedian: median(own) - median(base),
        addedP99: p99(own) - p99(base),
      });
    }
  }
  return rows;
}
