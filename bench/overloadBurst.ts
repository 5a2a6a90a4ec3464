import { chatBody } from './benchUpstream.js';
import { answerOf, createClient, postChat } from './client.js';
import { launchGateway } from './launchGateway.js';
import type { BenchUpstream } from './launchUpstream.js';
import { probeHealth } from './probeHealth.js';
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

/** How `GET /health` answered on one port over the burst. */
export interface ProbeStats {
  readonly probes: number;
  readonly medianMs: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** Probes that were not a 200 (or not answered). */
  readonly failures: number;
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
  /** `/health` on the main port, answered by the event loop that serves the burst. */
  readonly mainPort: ProbeStats;
  /** `/health` on `RXGATE_HEALTH_PORT`, answered by the health thread. */
  readonly healthPort: ProbeStats;
  readonly loopDelayP99Ms: number;
  readonly loopDelayMaxMs: number;
  /** The gateway's CPU time from the burst to its end, in ms: what the burst cost, however the machine's cores were shared. */
  readonly cpuMs: number;
}

function probeStats(latencies: readonly number[]): ProbeStats {
  const answered = latencies.filter((ms) => !Number.isNaN(ms));
  return {
    probes: latencies.length,
    medianMs: median(answered),
    p99Ms: p99(answered),
    maxMs: Math.max(...answered),
    failures: latencies.length - answered.length,
  };
}

/**
 * Goal 4 of issue 26: `streams` streams opened at once (one burst, no pacing) against a gateway
 * that is otherwise idle, while `GET /health` is probed every `probeEveryMs` on a new connection,
 * on the main port and on the health port, from a process of its own, from just before the burst
 * until the last stream ended. Each target in its own process.
 */
export async function measureOverload(upstream: BenchUpstream, plan: OverloadPlan): Promise<OverloadRow[]> {
  const rows: OverloadRow[] = [];
  // rxgate only: the relays have no /health to probe.
  for (const limitMs of plan.limits) {
    const gateway = await launchGateway('rxgate', upstream.baseUrl, {
      RXGATE_MAX_EVENT_LOOP_DELAY_MS: String(limitMs),
      RXGATE_HEALTH_PORT: '0',
    });
    const client = createClient();
    const scenario = { deltas: plan.deltas, everyMs: plan.everyMs };
    // Warm: the code compiled, connections to the upstream open; then a second of quiet so that nothing sheds from it.
    for (let i = 0; i < 50; i++) {
      const response = await postChat(client, gateway.origin, chatBody({ deltas: 2, everyMs: 0 }, true));
      await response.body.dump({ limit: Number.MAX_SAFE_INTEGER });
    }
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const before = await gateway.stats({ resetDelay: true });

    const probes = await probeHealth([gateway.origin, gateway.healthOrigin!], plan.probeEveryMs);
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
    const [mainPort, healthPort] = await probes.stop();
    const stats = await gateway.stats();
    await client.close();
    await gateway.stop();
    rows.push({
      target: `rxgate, limit ${limitMs === 0 ? 'off' : `${limitMs} ms`}`,
      limitMs,
      completed: outcomes.filter((outcome) => outcome === 'completed').length,
      shed: outcomes.filter((outcome) => outcome === 'shed').length,
      failed: outcomes.filter((outcome) => outcome === 'failed').length,
      mainPort: probeStats(mainPort!),
      healthPort: probeStats(healthPort!),
      loopDelayP99Ms: stats.loopDelayP99,
      loopDelayMaxMs: stats.loopDelayMax,
      cpuMs: (stats.cpuMicros - before.cpuMicros) / 1000,
    });
  }
  return rows;
}
