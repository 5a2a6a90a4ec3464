import type { OverloadPlan, OverloadRow, ProbeStats } from './overloadBurst.js';
import { fixed } from './stats.js';

const HOW_IT_SHEDS = [
  "**How it sheds.** The loop delay is sampled every 20 ms (a timer, unref'd); a request is shed when the last sample, or how overdue the next one already is, is past the limit, so that a burst handled in one turn of the loop (hundreds of requests read from their sockets one after another) starts shedding inside that turn, before the sampler could fire. ",
  'Shedding happens first on `/v1`, before auth, the body and a run; `/health`, `/health/ready` and `/metrics` are always answered, and the limit lifts after 1 s under it. ',
  "Each shed request still costs its connection, its headers, a request id, the error envelope and an access-log line: the *Gateway CPU ms* column (the process's CPU time over the burst, steady whatever the load, the health thread's included) shows what the burst cost with and without shedding.",
].join('');

const WHY_A_THREAD = [
  "**Why a health port.** On the main port, `/health` waits for the turn of the loop that reads the burst: libuv accepts connections one turn at a time, and the probe's connection waits behind every request read in the same turn, however cheap each answer is, so no amount of shedding brings its p99 under the burst's longest turn. ",
  '`RXGATE_HEALTH_PORT` is answered by a thread of its own with an event loop of its own. It judges the main loop by a heartbeat the main thread writes every 10 ms into shared memory: `/health` fails only once that heartbeat has been silent for 10 s (a loop that is stuck, not busy), and `/health/ready` reports overload from it at once, without waiting for the busy loop; the rest of readiness (the store, the upstream, MCP) it asks the main thread.',
].join('');

const probeCells = (stats: ProbeStats) =>
  `${stats.probes}${stats.failures > 0 ? ` (${stats.failures} not 200)` : ''} | ${fixed(stats.medianMs, 1)} | ${fixed(stats.p99Ms, 1)} | ${fixed(stats.maxMs, 0)}`;

/** Figure 7 of BENCHMARKS.md: issue 26's goal 4, a burst of streams and `/health` through it. */
export function overloadSection(rows: readonly OverloadRow[], plan: OverloadPlan, recommendedLimitMs: number): string {
  const shipped = rows.find((row) => row.limitMs === recommendedLimitMs);
  const met = shipped !== undefined && shipped.healthPort.p99Ms <= 50 && shipped.healthPort.failures === 0 && shipped.failed === 0;
  const verdict = shipped
    ? `${met ? '**met**' : '**missed**'} (at the recommended ${recommendedLimitMs} ms, on the health port: /health p99 ${fixed(shipped.healthPort.p99Ms, 1)} ms, max ${fixed(shipped.healthPort.maxMs, 0)} ms, ${shipped.healthPort.failures} probes not 200, ${shipped.failed} streams failed; on the main port p99 ${fixed(shipped.mainPort.p99Ms, 1)} ms)`
    : '**not measured** (no row at the recommended limit)';
  return [
    '## 7. Overload',
    '',
    `Issue 26, goal 4: when the event loop lags past \`RXGATE_MAX_EVENT_LOOP_DELAY_MS\`, new requests are shed with 503 \`overloaded\` and \`Retry-After\`, open streams go on, and \`GET /health\` answers within 50 ms at p99 throughout. ${verdict}.`,
    '',
    `${plan.streams} streaming requests opened at once (one burst, each on its own connection) against an idle, warmed rxgate process with a health listener (\`RXGATE_HEALTH_PORT\`), each an answer of ${plan.deltas} deltas, one every ${plan.everyMs} ms; \`GET /health\` asked every ${plan.probeEveryMs} ms on a new connection (as an orchestrator's probe is), on the main port and on the health port, by a process of its own (\`bench/healthProber.ts\`), from 100 ms before the burst until 200 ms after the last stream ended. *Shed*: 503 \`overloaded\` with \`Retry-After\`; *failed*: anything else that is not a complete answer. The loop delay is the gateway's own (\`monitorEventLoopDelay\`, 10 ms resolution) over the same span.`,
    '',
    '| Target | Completed | Shed | Failed | Health port: probes | median ms | p99 ms | max ms | Main port: probes | median ms | p99 ms | max ms | Loop delay p99 (max) ms | Gateway CPU ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.target} | ${r.completed} | ${r.shed} | ${r.failed} | ${probeCells(r.healthPort)} | ${probeCells(r.mainPort)} | ${fixed(r.loopDelayP99Ms, 0)} (${fixed(r.loopDelayMaxMs, 0)}) | ${Math.round(r.cpuMs).toLocaleString('en-US')} |`,
    ),
    '',
    WHY_A_THREAD,
    '',
    HOW_IT_SHEDS,
  ].join('\n');
}
