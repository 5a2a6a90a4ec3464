import type { OverloadPlan, OverloadRow } from './overloadBurst.js';
import { fixed } from './stats.js';

/** Figure 7 of BENCHMARKS.md: issue 26's goal 4, a burst of streams and `/health` through it. */
export function overloadSection(rows: readonly OverloadRow[], plan: OverloadPlan, defaultLimitMs: number): string {
  const shipped = rows.find((row) => row.limitMs === defaultLimitMs);
  const met = shipped !== undefined && shipped.healthP99Ms <= 50 && shipped.healthFailures === 0 && shipped.failed === 0;
  const verdict = shipped
    ? met
      ? '**met**'
      : `**missed** (at the default ${defaultLimitMs} ms: /health p99 ${fixed(shipped.healthP99Ms, 1)} ms, max ${fixed(shipped.healthMaxMs, 0)} ms, ${shipped.failed} streams failed)`
    : '**not measured** (no row at the default limit)';
  return [
    '## 7. Overload',
    '',
    `Issue 26, goal 4: when the event loop lags past \`RXGATE_MAX_EVENT_LOOP_DELAY_MS\`, new requests are shed with 503 \`overloaded\` and \`Retry-After\`, open streams go on, and \`GET /health\` answers within 50 ms at p99 throughout. ${verdict}.`,
    '',
    `${plan.streams} streaming requests opened at once (one burst, each on its own connection) against an idle, warmed rxgate process, each an answer of ${plan.deltas} deltas, one every ${plan.everyMs} ms; \`GET /health\` asked every ${plan.probeEveryMs} ms on a new connection (as an orchestrator's probe is) from 100 ms before the burst until 200 ms after the last stream ended. *Shed*: 503 \`overloaded\` with \`Retry-After\`; *failed*: anything else that is not a complete answer. The loop delay is the gateway's own (\`monitorEventLoopDelay\`, 10 ms resolution) over the same span.`,
    '',
    '| Target | Completed | Shed | Failed | /health probes | /health median ms | p99 ms | max ms | Loop delay p99 (max) ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.target} | ${r.completed} | ${r.shed} | ${r.failed} | ${r.probes}${r.healthFailures > 0 ? ` (${r.healthFailures} not 200)` : ''} | ${fixed(r.healthMedianMs, 1)} | ${fixed(r.healthP99Ms, 1)} | ${fixed(r.healthMaxMs, 0)} | ${fixed(r.loopDelayP99Ms, 0)} (${fixed(r.loopDelayMaxMs, 0)}) |`,
    ),
  ].join('\n');
}
