import type { IdempotencyCostRow, IdempotencyKind } from './idempotencyCost.js';
import { fixed } from './stats.js';

/** The `Idempotency-Key` figure of BENCHMARKS.md (issue 25): a chat completion without the header, with a new key, and replayed. */
export function idempotencySection(rows: readonly IdempotencyCostRow[]): string {
  const of = (kind: IdempotencyKind, stream: boolean) => rows.find((row) => row.kind === kind && row.stream === stream);
  const added = (kind: IdempotencyKind, stream: boolean) =>
    (of(kind, stream)?.median ?? Number.NaN) - (of('no key', stream)?.median ?? Number.NaN);
  const cpu = (kind: IdempotencyKind, stream: boolean) =>
    (of(kind, stream)?.cpuPerRequest ?? Number.NaN) - (of('no key', stream)?.cpuPerRequest ?? Number.NaN);
  return [
    '### Idempotency-Key on chat completions',
    '',
    "Three rxgate processes, each on a SQLite file of its own, answer the same chat completions (8 deltas) in turn, one after the other: one without the header (the path every other figure measures), one with a new `Idempotency-Key` each time (the answer goes to the event log as it is sent, and its end, `[DONE]` or the JSON answer, waits until the log has written it, at once rather than in the log's next 20 ms batch, and the key is settled), one with the same key every time (replayed from the log: no upstream call). Timed to the last byte; CPU is the process's user and system time over the counted requests, from `/proc` (10 ms ticks), divided by their number. " +
      `A new key adds ${fixed(added('new key', true), 2)} ms (streaming) and ${fixed(added('new key', false), 2)} ms (non-streaming) to the median, the log's and the record's writes, and ${fixed(cpu('new key', true), 3)} / ${fixed(cpu('new key', false), 3)} ms of CPU per request; ` +
      `a replay answers ${fixed(-added('replay', true), 2)} / ${fixed(-added('replay', false), 2)} ms sooner than a run, at the median.`,
    '',
    '| Idempotency-Key | Streaming | Requests | Median ms | p99 ms | CPU ms per request |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (row) =>
        `| ${row.kind} | ${row.stream ? 'yes' : 'no'} | ${row.requests} | ${fixed(row.median, 3)} | ${fixed(row.p99, 3)} | ${fixed(row.cpuPerRequest, 3)} |`,
    ),
  ].join('\n');
}
