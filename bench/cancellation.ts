import type { Agent } from 'undici';
import { chatBody, clock, type Scenario } from './benchUpstream.js';
import { createFrameCounter, postChat } from './client.js';
import type { BenchUpstream } from './launchUpstream.js';
import { median, p99 } from './stats.js';

export interface CancellationRow {
  readonly target: string;
  readonly phase: 'streaming' | 'silent';
  readonly trials: number;
  readonly median: number;
  readonly p99: number;
  readonly max: number;
  /** Trials whose upstream socket had not closed within a second of the abort. */
  readonly missed: number;
}

const MISSED = 1_000;

/**
 * Client abort to the upstream seeing its socket close, in ms. `streaming`: the client aborts after
 * reading a few deltas of a stream that sends one a millisecond; `silent`: the upstream sent its
 * headers and nothing else, and the client aborts once the request reached it.
 */
async function oneTrial(
  client: Agent,
  upstream: BenchUpstream,
  origin: string,
  phase: 'streaming' | 'silent',
  id: string,
): Promise<number> {
  const scenario: Scenario = phase === 'streaming' ? { id, deltas: 100_000, everyMs: 1 } : { id, deltas: 1, everyMs: 0, stall: true };
  const controller = new AbortController();
  const response = await postChat(client, origin, chatBody(scenario, true), controller.signal);
  const visit = await upstream.visit(id);
  if (phase === 'streaming') {
    const counter = createFrameCounter();
    const iterator = response.body[Symbol.asyncIterator]();
    while (counter.count < 4) {
      const { value, done } = await iterator.next();
      if (done) throw new Error('the stream ended before the abort');
      counter.feed(value as Buffer);
    }
  }
  response.body.on('error', () => undefined);
  const abortedAt = clock();
  controller.abort();
  const closed = await Promise.race([
    visit.closed,
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), MISSED).unref()),
  ]);
  return closed ? closed.at - abortedAt : Number.POSITIVE_INFINITY;
}

export async function measureCancellation(
  client: Agent,
  upstream: BenchUpstream,
  targets: readonly { name: string; origin: string }[],
  { trials, warmup }: { trials: number; warmup: number },
): Promise<CancellationRow[]> {
  const rows: CancellationRow[] = [];
  let n = 0;
  for (const phase of ['streaming', 'silent'] as const) {
    const samples = targets.map((): number[] => []);
    for (let trial = 0; trial < warmup + trials; trial++) {
      for (const [i, target] of targets.entries()) {
        const ms = await oneTrial(client, upstream, target.origin, phase, `cancel-${++n}`);
        if (trial >= warmup) samples[i]!.push(ms);
      }
    }
    for (const [i, target] of targets.entries()) {
      const own = samples[i]!;
      const seen = own.filter(Number.isFinite);
      rows.push({
        target: target.name,
        phase,
        trials: own.length,
        median: median(seen),
        p99: p99(own),
        max: Math.max(...seen),
        missed: own.length - seen.length,
      });
    }
  }
  return rows;
}
