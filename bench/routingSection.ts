import type { RoutingCostRow, RoutingPath } from './routingCost.js';
import { fixed } from './stats.js';

/** The routing figure of BENCHMARKS.md (issue 24): a routes file of two targets against the one upstream, and the time to fail over. */
export function routingSection(rows: readonly RoutingCostRow[]): string {
  const of = (path: RoutingPath, measure: RoutingCostRow['measure']) => rows.find((row) => row.path === path && row.measure === measure);
  const added = (path: RoutingPath, measure: RoutingCostRow['measure']) =>
    (of(path, measure)?.median ?? Number.NaN) - (of('single upstream', measure)?.median ?? Number.NaN);
  const failover = (path: RoutingPath) => added(path, 'first content');
  return [
    '### A routes file of two targets, and the time to fail over',
    '',
    'Four rxgate processes answer the same requests (8 deltas) in turn, one after the other: one on the single-upstream path (`RXGATE_UPSTREAM_*`, as without a routes file), three with a routes file (`RXGATE_ROUTES_FILE`) whose model has two targets, `ordered`, the second being the bench upstream and the first the bench upstream as well, an upstream that answers every request 503, or a port on which nothing listens. Their breaker never opens, so that every request pays for its failover (with the default breaker, three failures skip the first target for 30 s). ' +
      "*Non-streaming* and *streaming* are timed to the last byte; *first content* (streaming) to the first text delta the client reads, which after a failover is the second target's (the SSE headers go out before the first attempt, so they say nothing of it). " +
      `The routes file adds ${fixed(added('routes file, two targets', 'non-streaming'), 3)} ms (non-streaming) and ${fixed(added('routes file, two targets', 'streaming'), 3)} ms (streaming) to the median; ` +
      `failing over costs ${fixed(failover('first target answers 503'), 2)} ms after a 503 and ${fixed(failover('first target refuses the connection'), 2)} ms after a refused connection, at the median, to the first content.`,
    '',
    '| Path | Measure | Requests | Median ms | p99 ms | Median ms over the single upstream |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (row) =>
        `| ${row.path} | ${row.measure} | ${row.requests} | ${fixed(row.median, 3)} | ${fixed(row.p99, 3)} | ${row.path === 'single upstream' ? '' : fixed(added(row.path, row.measure), 3)} |`,
    ),
  ].join('\n');
}
