import { request } from 'undici';
import { chatBody } from './benchUpstream.js';
import { answerOf, createClient, postChat } from './client.js';
import { launchGateway } from './launchGateway.js';
import type { BenchUpstream } from './launchUpstream.js';
import { median, p99 } from './stats.js';

export interface OverloadPlan {
  /** Streams opened at once. */
  readonly streams: number;
  /** Deltas each stream's answer has, one every `everyMs`. */
  readonly deltas: number;
  readonly everyMs: number;
  /** How often `GET /health` is asked, each time on a new connection, as an orchestrator's probe is. */
  readonly probeEveryMs: number;
  /** `RXGATE_MAX_EVENT_LOOP_DELAY_MS` values to run rxgate with (0: never shed). */
  readonly limits: readonly number[];
}

export interface OverloadRow {
  readonly target: string;
  /** `RXGATE_MAX_EVENT_LOOP_DELAY_MS`; 0: off. */
  readonly limitMs: number;
  readonly completed: number;
  /** 503 `overloaded` with a `Retry-After`. */
  readonly shed: number;
  /** Anything else: a failed connection, a stream cut short, another status. */
  readonly failed: number;
  readonly probes: number;
  readonly healthMedianMs: number;
  readonly healthP99Ms: number;
  readonly healthMaxMs: number;
  /** Probes that were not a 200 (or not answered). */
  readonly healthFailures: number;
  readonly loopDelayP99Ms: number;
  readonly loopDelayMaxMs: number;
  /** The gateway's CPU time from the burst to its end, in ms: what the burst cost, however the machine's cores were shared. */
  readonly cpuMs: number;
}

/** One `GET /health` on a connection of its own, in ms; NaN when it is not a 200. */
async function probe(origin: string): Promise<number> {
  const started = performance.now();
  try {
    const response = await request(`${origin}/health`, { reset: true, headersTimeout: 30_000, bodyTimeout: 30_000 });
    await response.body.dump();
    return response.statusCode === 200 ? performance.now() - started : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * Goal 4 of issue 26: `streams` streams opened at once (one burst, no pacing) against a gateway
 * that is otherwise idle, while `GET /health` is probed every `probeEveryMs` on a new connection,
 * from just before the burst until the last stream ended. Each target in its own process.
 */
export async function measureOverload(upstream: BenchUpstream, plan: OverloadPlan): Promise<OverloadRow[]> {
  const rows: OverloadRow[] = [];
  // rxgate only: the relays have no /health to probe.
  for (const limitMs of plan.limits) {
    const gateway = await launchGateway('rxgate', upstream.baseUrl, { RXGATE_MAX_EVENT_LOOP_DELAY_MS: String(limitMs) });
    const client = createClient();
    const scenario = { deltas: plan.deltas, everyMs: plan.everyMs };
    // Warm: the code compiled, connections to the upstream open; then a second of quiet so that nothing sheds from it.
    for (let i = 0; i < 50; i++) {
      const response = await postChat(client, gateway.origin, chatBody({ deltas: 2, everyMs: 0 }, true));
      await response.body.dump({ limit: Number.MAX_SAFE_INTEGER });
    }
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const before = await gateway.stats({ resetDelay: true });

    const latencies: number[] = [];
    let probing = true;
    const prober = (async () => {
      while (probing) {
        const next = performance.now() + plan.probeEveryMs;
        latencies.push(await probe(gateway.origin));
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const outcomes = await Promise.all(
      Array.from({ length: plan.streams }, async () => {
        try {
          const response = await postChat(client, gateway.origin, chatBody(scenario, true), undefined, true);
          const text = await response.body.text();
          if (response.statusCode === 503 && text.includes('"overloaded"') && response.headers['retry-after']) return 'shed';
          return response.statusCode === 200 && answerOf(text).clean ? 'completed' : 'failed';
        } catch {
          return 'failed';
        }
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    probing = false;
    await prober;
    const stats = await gateway.stats();
    await client.close();
    await gateway.stop();
    const answered = latencies.filter((ms) => !Number.isNaN(ms));
    rows.push({
      target: `rxgate, limit ${limitMs === 0 ? 'off' : `${limitMs} ms`}`,
      limitMs,
      completed: outcomes.filter((outcome) => outcome === 'completed').length,
      shed: outcomes.filter((outcome) => outcome === 'shed').length,
      failed: outcomes.filter((outcome) => outcome === 'failed').length,
      probes: latencies.length,
      healthMedianMs: median(answered),
      healthP99Ms: p99(answered),
      healthMaxMs: Math.max(...answered),
      healthFailures: latencies.length - answered.length,
      loopDelayP99Ms: stats.loopDelayP99,
      loopDelayMaxMs: stats.loopDelayMax,
      cpuMs: (stats.cpuMicros - before.cpuMicros) / 1000,
    });
  }
  return rows;
}
