import type { LatencyRow } from './addedLatency.js';
import type { CancellationRow } from './cancellation.js';
import type { ConcurrencyRow } from './concurrency.js';
import type { SoakResult } from './leakSoak.js';
import { fixed, kib, mib } from './stats.js';
import type { ThroughputRow } from './throughput.js';

export interface Report {
  readonly machine: { cores: number; cpu: string; memoryGiB: number; node: string; platform: string };
  readonly plan: Record<string, unknown>;
  readonly quick: boolean;
  readonly latency: readonly LatencyRow[];
  readonly throughput: readonly ThroughputRow[];
  readonly cancellation: readonly CancellationRow[];
  readonly concurrency: readonly ConcurrencyRow[];
  readonly soak: SoakResult;
  readonly minutes: number;
  readonly date: string;
}

const verdict = (met: boolean, miss: string) => (met ? '**met**' : `**missed** (${miss})`);
const total = (resources: Record<string, number>) => Object.values(resources).reduce((sum, n) => sum + n, 0);
const listResources = (resources: Record<string, number>) =>
  Object.entries(resources)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([type, n]) => `${type} ${n}`)
    .join(', ');

function latencySection(rows: readonly LatencyRow[]): string {
  const rx = rows.filter((row) => row.target === 'rxgate');
  const worst = Math.max(...rx.map((row) => row.addedMedian));
  const lines = [
    '## 1. Added latency',
    '',
    `Target: under 0.5 ms median added. ${verdict(worst < 0.5, `${fixed(worst - 0.5, 3)} ms over`)}: rxgate adds ${rx.map((row) => `${fixed(row.addedMedian, 3)} ms (${row.mode})`).join(' and ')} at the median.`,
    '',
    'Sequential requests, one at a time, an 8-delta answer; the targets take turns request by request. Streaming is timed to the last byte (`[DONE]`). Non-streaming through rxgate still streams from the upstream (the agent always does) and answers one `chat.completion`; straight to the upstream it is the upstream\'s own JSON answer.',
    '',
    '| Mode | Target | Median ms | p99 ms | Added median ms | Added p99 ms |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
    ...rows.map((row) => `| ${row.mode} | ${row.target} | ${fixed(row.median, 3)} | ${fixed(row.p99, 3)} | ${row.target === 'upstream directly' ? '' : fixed(row.addedMedian, 3)} | ${row.target === 'upstream directly' ? '' : fixed(row.addedP99, 3)} |`),
    '',
    'Peers, as published by their makers on their own hardware (not measured here): LiteLLM 2–12 ms median added, Portkey ~2.4 ms, Bifrost ~0.44 ms.',
  ];
  return lines.join('\n');
}

function throughputSection(rows: readonly ThroughputRow[]): string {
  const of = (name: string) => rows.find((row) => row.target === name)!;
  const rx = of('rxgate');
  const bare = of('bare');
  const sse = of('better-sse');
  const noMetrics = of('rxgate-no-metrics');
  const ratio = rx.median / bare.median;
  const metricsCost = 1 - rx.median / noMetrics.median;
  return [
    '## 2. Streaming throughput',
    '',
    `Target: at least 0.8 of the bare relay, and ahead of better-sse. ${verdict(ratio >= 0.8, `${fixed(ratio, 2)} of the bare relay, ${fixed(0.8 - ratio, 2)} short`)} for the first (${fixed(ratio, 2)}); ` +
      `${verdict(rx.median > sse.median, `${fixed(rx.median / sse.median, 2)} of better-sse`)} for the second (${fixed(rx.median / sse.median, 2)}× better-sse).`,
    '',
    'One stream at a time of flat-out deltas (the upstream writes them 64 frames per write, as fast as the socket takes them); chunks (SSE frames) received per second by the client, request to last byte. The targets take turns, one stream each per round.',
    '',
    '| Target | Median frames/s | Rounds (frames/s) | vs bare relay |',
    '| --- | ---: | --- | ---: |',
    ...rows.map((row) => `| ${row.target} | ${Math.round(row.median).toLocaleString('en-US')} | ${row.rates.map((rate) => Math.round(rate / 1000)).join('k, ')}k | ${fixed(row.median / bare.median, 2)} |`),
    '',
    `**Metrics overhead.** Prometheus metrics are always on in rxgate; \`rxgate-no-metrics\` is the same app built with \`createApp({ metrics })\` given no-op metrics and no default collectors. The difference is ${fixed(metricsCost * 100, 1)} % of throughput (negative: within noise).`,
  ].join('\n');
}

function cancellationSection(rows: readonly CancellationRow[]): string {
  const rx = rows.filter((row) => row.target === 'rxgate');
  const worst = Math.max(...rx.map((row) => row.p99));
  return [
    '## 3. Cancellation latency',
    '',
    `Target: p99 under 5 ms. ${verdict(worst < 5, `${fixed(worst - 5, 2)} ms over`)}: rxgate's p99 is ${rx.map((row) => `${fixed(row.p99, 2)} ms (${row.phase})`).join(' and ')}.`,
    '',
    'From the client\'s abort to the upstream seeing its socket close, measured on one clock (the client and the upstream share the bench process; the gateway runs in its own). *streaming*: the upstream sends a delta every millisecond and the client aborts after reading a few. *silent*: the upstream sent its headers and nothing else; the client aborts once the request has reached it.',
    '',
    '| Phase | Target | Trials | Median ms | p99 ms | Max ms | Never reached the upstream |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((row) => `| ${row.phase} | ${row.target} | ${row.trials} | ${fixed(row.median, 3)} | ${fixed(row.p99, 3)} | ${fixed(row.max, 2)} | ${row.missed} |`),
  ].join('\n');
}

function concurrencySection(rows: readonly ConcurrencyRow[], plan: { streams: number; deltas: number; everyMs: number }): string {
  const rx = rows.find((row) => row.target === 'rxgate')!;
  const bare = rows.find((row) => row.target === 'bare')!;
  const allDone = rx.completed === rx.streams;
  return [
    '## 4. Concurrency and memory',
    '',
    `${plan.streams.toLocaleString('en-US')} concurrent streams, one delta every ${plan.everyMs} ms, ${plan.deltas} deltas each (${(plan.deltas * plan.everyMs) / 1000} s), opened over about a second. ` +
      `Every stream must end with the exact text, \`finish_reason: "stop"\` and \`[DONE]\`: ${verdict(allDone, `${rx.streams - rx.completed} did not: ${rx.wrong} wrong, ${rx.failed} failed`)} for rxgate (${rx.completed}/${rx.streams}).`,
    '',
    'Memory is sampled in the gateway process once every stream is open, after a full GC, against the same gateway idle; the event-loop delay is the p99 over the whole load up to that sample.',
    '',
    '| Target | Completed | Wall s | RSS idle → loaded MiB | Heap idle → loaded MiB | RSS per stream KiB | Heap per stream KiB | Event-loop delay p99 ms (max) |',
    '| --- | ---: | ---: | --- | --- | ---: | ---: | ---: |',
    ...rows.map(
      (row) =>
        `| ${row.target} | ${row.completed}/${row.streams} | ${fixed(row.seconds, 1)} | ${mib(row.idle.rss)} → ${mib(row.loaded.rss)} | ${mib(row.idle.heapUsed)} → ${mib(row.loaded.heapUsed)} | ${kib(row.rssPerStream)} | ${kib(row.heapPerStream)} | ${fixed(row.loaded.loopDelayP99, 1)} (${fixed(row.loaded.loopDelayMax, 0)}) |`,
    ),
    '',
    `rxgate holds ${fixed(rx.heapPerStream / Math.max(1, bare.heapPerStream), 1)}× the bare relay's heap per open stream.`,
  ].join('\n');
}

function soakSection(soak: SoakResult): string {
  const heapDelta = soak.after.heapUsed - soak.before.heapUsed;
  const leftovers = total(soak.after.resources) - total(soak.before.resources);
  const ok = Math.abs(heapDelta) < 5 * 1024 * 1024 && leftovers <= 0 && soak.unseen === 0 && (soak.after.activeRuns ?? 0) === 0;
  return [
    '## 5. Leak soak',
    '',
    `${soak.aborted.toLocaleString('en-US')} of ${soak.planned.toLocaleString('en-US')} planned streams through rxgate (${fixed(soak.seconds, 1)} s, 200 at a time), each aborted by its client at a random point: half while the upstream is silent before its first token, half while tokens stream. ` +
      `Target: heap after GC back within a few MB, no leftover sockets, timers or listeners, every abort reaching the upstream. ${verdict(ok, 'see below')}.`,
    '',
    '| | Before | After |',
    '| --- | --- | --- |',
    `| Heap after GC | ${mib(soak.before.heapUsed)} MiB | ${mib(soak.after.heapUsed)} MiB (${heapDelta >= 0 ? '+' : ''}${fixed(heapDelta / 1024 / 1024, 2)} MiB) |`,
    `| RSS | ${mib(soak.before.rss)} MiB | ${mib(soak.after.rss)} MiB |`,
    `| Active resources | ${total(soak.before.resources)}: ${listResources(soak.before.resources)} | ${total(soak.after.resources)}: ${listResources(soak.after.resources)} |`,
    `| \`activeRuns.size\` | ${soak.before.activeRuns} | ${soak.after.activeRuns} |`,
    '',
    `Aborts that never reached the upstream as a closed socket (within 1 s): **${soak.unseen}**. Requests that failed before their abort: ${soak.errors}. The resources were back to the starting count ${fixed(soak.settleMs / 1000, 1)} s after the last abort (the bench polls for up to 10 s; the idle count includes the IPC channel to the bench and the listening socket).`,
  ].join('\n');
}

/** BENCHMARKS.md, from one run. */
export function renderReport(report: Report): string {
  const { machine } = report;
  return [
    '# Benchmarks',
    '',
    '<!-- Generated by `npm run bench` (bench/run.ts). Do not edit by hand; run it again. -->',
    '',
    `Measured ${report.date} in ${fixed(report.minutes, 1)} minutes on ${machine.cores} cores (${machine.cpu}), ${fixed(machine.memoryGiB, 1)} GiB, ${machine.platform}, Node ${machine.node}. ` +
      'The machine is shared and noisy: compare the rows of one table with each other (they were measured side by side, interleaved), not with another run.' +
      (report.quick ? ' **This is a quick run (BENCH_QUICK=1): too small to quote.**' : ''),
    '',
    'Everything runs on 127.0.0.1. The bench process holds the load generator (undici `request`, a real HTTP client) and a lean scripted OpenAI-compatible upstream (`bench/benchUpstream.ts`); each thing under test runs in its own Node process:',
    '',
    '- **rxgate**: `createApp` with `createLlmAgent` pointed at the upstream, no tools, default settings, silent logger, Prometheus metrics on, the server settings of `startServer`.',
    '- **rxgate-no-metrics**: the same with no-op metrics (throughput only).',
    '- **bare**: a `node:http` relay that parses the upstream SSE with eventsource-parser, re-serialises each frame and writes it; nothing else (`bench/bareRelay.ts`).',
    '- **better-sse**: the same relay pushing each frame with better-sse `session.push` (which adds `event:` and `id:` lines) (`bench/betterSseRelay.ts`).',
    '',
    'To reproduce: `npm ci && npm run bench` (about five minutes; `BENCH_QUICK=1` for a smoke run, `BENCH_STREAMS` and `BENCH_SOAK` to change the sizes of figures 4 and 5, `BENCH_CPU_PROF=dir` to write a CPU profile of each gateway process).',
    '',
    `Plan of this run: \`${JSON.stringify(report.plan)}\``,
    '',
    latencySection(report.latency),
    '',
    throughputSection(report.throughput),
    '',
    cancellationSection(report.cancellation),
    '',
    concurrencySection(report.concurrency, report.plan.concurrency as { streams: number; deltas: number; everyMs: number }),
    '',
    soakSection(report.soak),
    '',
  ].join('\n');
}
