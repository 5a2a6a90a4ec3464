import type { OverloadPlan, OverloadRow } from './overloadBurst.js';
import { fixed } from './stats.js';

const HOW_IT_SHEDS = [
  "**How it sheds.** The loop delay is sampled every 20 ms (a timer, unref'd); a request is shed when the last sample, or how overdue the next one already is, is past the limit, so that a burst handled in one turn of the loop (hundreds of requests read from their sockets one after another) starts shedding inside that turn, before the sampler could fire. ",
  'Shedding happens first on `/v1`, before auth, the body and a run; `/health`, `/health/ready` and `/metrics` are always answered, and the limit lifts after 1 s under it. ',
  "Each shed request still costs its connection, its headers, a request id, the error envelope and an access-log line: the *Gateway CPU ms* column (the process's CPU time over the burst, steady whatever the load) shows what the burst cost with and without shedding. ",
  "What keeps `/health` slow when 300 connections arrive together is the turn that reads them: the probe's connection waits behind every other request read in the same turn, however cheap each answer is.",
].join('');

/** Figure 7 of BENCHMARKS.md: issue 26's goal 4, a burst of streams and `/health` through it. */
export function overloadSection(rows: readonly OverloadRow[], plan: OverloadPlan, recommendedLimitMs: number): string {
  const shipped = rows.find((row) => row.limitMs === recommendedLimitMs);
  const met = shipped !== undefined && shipped.healthP99Ms <= 50 && shipped.healthFailures === 0 && shipped.failed === 0;
  const verdict = shipped
    ? met
      ? '**met**'
      : `**missed** (at the recommended ${recommendedLimitMs} ms: /health p99 ${fixed(shipped.healthP99Ms, 1)} ms, max ${fixed(shipped.healthMaxMs, 0)} ms, ${shipped.failed} streams failed)`
    : '**not measured** (no row at the recommended limit)';
  return [
    '## 7. Overload',
    '',
    `Issue 26, goal 4: when the event loop lags past \`RXGATE_MAX_EVENT_LOOP_DELAY_MS\`, new requests are shed with 503 \`overloaded\` and \`Retry-After\`, open streams go on, and \`GET /health\` answers within 50 ms at p99 throughout. ${verdict}.`,
    '',
    `${plan.streams} streaming requests opened at once (one burst, each on its own connection) against an idle, warmed rxgate process, each an answer of ${plan.deltas} deltas, one every ${plan.everyMs} ms; \`GET /health\` asked every ${plan.probeEveryMs} ms on a new connection (as an orchestrator's probe is) from 100 ms before the burst until 200 ms after the last stream ended. *Shed*: 503 \`overloaded\` with \`Retry-After\`; *failed*: anything else that is not a complete answer. The loop delay is the gateway's own (\`monitorEventLoopDelay\`, 10 ms resolution) over the same span.`,
    '',
    '| Target | Completed | Shed | Failed | /health probes | /health median ms | p99 ms | max ms | Loop delay p99 (max) ms | Gateway CPU ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.target} | ${r.completed} | ${r.shed} | ${r.failed} | ${r.probes}${r.healthFailures > 0 ? ` (${r.healthFailures} not 200)` : ''} | ${fixed(r.healthMedianMs, 1)} | ${fixed(r.healthP99Ms, 1)} | ${fixed(r.healthMaxMs, 0)} | ${fixed(r.loopDelayP99Ms, 0)} (${fixed(r.loopDelayMaxMs, 0)}) | ${Math.round(r.cpuMs).toLocaleString('en-US')} |`,
    ),
    '',
    HOW_IT_SHEDS,
  ].join('\n');
}
