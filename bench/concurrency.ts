import { setMaxListeners } from 'node:events';
import type { Agent } from 'undici';
import { chatBody } from './benchUpstream.js';
import { answerOf, postChat } from './client.js';
import type { GatewayStats } from './gateway.js';
import type { Gateway } from './launchGateway.js';
import { median } from './stats.js';

export interface ConcurrencyRow {
  readonly target: string;
  readonly streams: number;
  readonly completed: number;
  readonly wrong: number;
  readonly failed: number;
  /** Seconds from the first request to the last stream's end. */
  readonly seconds: number;
  /** Each stream's own duration, request to last byte, in seconds: planned `deltas * everyMs`. */
  readonly streamMedian: number;
  readonly streamMax: number;
  readonly plannedSeconds: number;
  readonly idle: GatewayStats;
  /** Sampled with every stream open, after a full GC. */
  readonly loaded: GatewayStats;
  readonly rssPerStream: number;
  readonly heapPerStream: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/**
 * `streams` concurrent streams, each one delta every `everyMs` for `deltas` deltas, opened over
 * about a second. Memory is sampled once every stream is open (after a full GC); the event-loop
 * delay covers the whole run, up to that sample.
 */
export async function measureConcurrency(
  client: Agent,
  gateway: Gateway,
  { streams, deltas, everyMs, deadlineMs }: { streams: number; deltas: number; everyMs: number; deadlineMs: number },
): Promise<ConcurrencyRow> {
  const idle = await gateway.stats({ gc: true, resetDelay: true });
  const text = 'abc ';
  const expected = text.repeat(deltas);
  const body = chatBody({ deltas, everyMs, text }, true);
  let open = 0;
  let allOpen!: () => void;
  const everyoneOpen = new Promise<void>((resolve) => (allOpen = resolve));
  const deadline = AbortSignal.timeout(deadlineMs);
  setMaxListeners(streams + 10, deadline);
  const started = performance.now();

  const durations: number[] = [];
  const one = async (): Promise<'ok' | 'wrong' | 'failed'> => {
    try {
      const requested = performance.now();
      const response = await postChat(client, gateway.origin, body, deadline, true);
      if (++open === streams) allOpen();
      const { content, clean } = answerOf(await response.body.text());
      durations.push((performance.now() - requested) / 1000);
      return response.statusCode === 200 && clean && content === expected ? 'ok' : 'wrong';
    } catch {
      if (++open === streams) allOpen();
      return 'failed';
    }
  };
  const results: Promise<'ok' | 'wrong' | 'failed'>[] = [];
  const waves = 20;
  for (let wave = 0; wave < waves; wave++) {
    const size = Math.ceil(streams / waves);
    for (let i = 0; i < size && results.length < streams; i++) results.push(one());
    await sleep(50);
  }
  // Sample at the peak: every stream open at the gateway, or the first poll after the count began to fall.
  let peak = 0;
  for (;;) {
    const { openResponses } = await gateway.stats();
    if (openResponses >= streams || openResponses < peak || performance.now() - started > deadlineMs) break;
    peak = openResponses;
    await Promise.race([everyoneOpen, sleep(200)]);
  }
  const loaded = await gateway.stats({ gc: true });
  const outcomes = await Promise.all(results);
  const seconds = (performance.now() - started) / 1000;
  const count = (outcome: string) => outcomes.filter((o) => o === outcome).length;
  return {
    target: gateway.kind,
    streams,
    completed: count('ok'),
    wrong: count('wrong'),
    failed: count('failed'),
    seconds,
    streamMedian: median(durations),
    streamMax: Math.max(...durations),
    plannedSeconds: (deltas * everyMs) / 1000,
    idle,
    loaded,
    // Per stream the gateway held open at the sample: on a saturated machine the first streams may have ended before the last began.
    rssPerStream: (loaded.rss - idle.rss) / Math.max(1, loaded.openResponses),
    heapPerStream: (loaded.heapUsed - idle.heapUsed) / Math.max(1, loaded.openResponses),
  };
}
