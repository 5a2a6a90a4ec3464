import type { LatencyRow } from './addedLatency.js';
import type { CancellationRow } from './cancellation.js';
import type { TracingCostRow } from './tracingCost.js';
import { CHARTS } from './charts.js';
import { OWN_FILES, type ConcurrencyRow, type Delay } from './concurrency.js';
import type { ConcurrencyFigurePlan } from './concurrencyFigure.js';
import type { CpuPlan } from './cpuPerRequest.js';
import { cpuSection } from './cpuSection.js';
import type { CrossInstancePlan, CrossInstanceResult, CrossInstanceRow } from './crossInstance.js';
import type { OverloadPlan } from './overloadBurst.js';
import { RECOMMENDED_LIMIT_MS } from './overloadPlan.js';
import { overloadSection } from './overloadSection.js';
import { idempotencySection } from './idempotencySection.js';
import { messagesSection } from './messagesSection.js';
import { socketRolloutSection } from './socketRolloutSection.js';
import { routingSection } from './routingSection.js';
import type { LoadedLatencyRow } from './latencyUnderLoad.js';
import type { SoakResult } from './leakSoak.js';
import { fixed, kib, mib } from './stats.js';
import type { ThroughputRow } from './throughput.js';
import type { Report } from './Report.js';

const verdict = (met: boolean, miss: string) => (met ? '**met**' : `**missed** (${miss})`);
const total = (resources: Record<string, number>) => Object.values(resources).reduce((sum, n) => sum + n, 0);
const listResources = (resources: Record<string, number>) =>
  Object.entries(resources)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([type, n]) => `${type} ${n}`)
    .join(', ');

const rowOf = <T extends { target: string }>(rows: readonly T[], target: string, where: (row: T) => boolean = () => true) =>
  rows.find((row) => row.target === target && where(row))!;

function latencySection(rows: readonly LatencyRow[]): string {
  const rx = rows.filter((row) => row.target === 'rxgate');
  const worst = Math.max(...rx.map((row) => row.addedMedian));
  const own = (mode: string) =>
    rowOf(rows, 'rxgate', (row) => row.mode === mode).addedMedian - rowOf(rows, 'bare', (row) => row.mode === mode).addedMedian;
  const floor = (mode: string) => rowOf(rows, 'bare', (row) => row.mode === mode).addedMedian;
  const lines = [
    '## 1. Added latency',
    '',
    `Target: under 0.5 ms median added. ${verdict(worst < 0.5, `by ${fixed(worst - 0.5, 2)} ms`)}: rxgate adds ${rx.map((row) => `${fixed(row.addedMedian, 3)} ms (${row.mode})`).join(' and ')} at the median.`,
    '',
    "Sequential requests, one at a time, an 8-delta answer; each round makes one request of each mode to each target in turn, starting one target further on each round (in a fixed order, two copies of one build read 0.035 ms apart by their places alone), and the unmeasured warm-up rounds cover both modes, so that every process has compiled both paths before anything counts. Streaming is timed to the last byte (`[DONE]`). Non-streaming through rxgate still streams from the upstream (the agent always does) and answers one `chat.completion`; straight to the upstream it is the upstream's own JSON answer.",
    '',
    '| Mode | Target | Median ms | p99 ms | Added median ms | Added p99 ms |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (row) =>
        `| ${row.mode} | ${row.target} | ${fixed(row.median, 3)} | ${fixed(row.p99, 3)} | ${row.target === 'upstream directly' ? '' : fixed(row.addedMedian, 3)} | ${row.target === 'upstream directly' ? '' : fixed(row.addedP99, 3)} |`,
    ),
    '',
    `**${worst < 0.5 ? 'Where the time goes' : 'What holds it back'}.** A relay that does nothing but forward (\`bare\`) already adds ${fixed(floor('streaming'), 2)} ms (streaming) and ${fixed(floor('non-streaming'), 2)} ms (non-streaming) here: ` +
      "every request through a gateway makes two more loopback hops between three processes that share two cores (each hop waits for a process to be scheduled); both call the upstream with undici's `request` (Node 20's `fetch`, with its WHATWG streams, cost rxgate about 0.15 ms more per request). " +
      `rxgate's own cost on top of that floor is ${fixed(own('streaming'), 2)} ms (streaming) and ${fixed(own('non-streaming'), 2)} ms (non-streaming): Express routing and body parsing, zod validation, the RxJS pipeline, metrics.`,
    '',
    "**The order of the writes** (issue 26, 2026-12-02). undici writes a request on a reused keep-alive connection only in the event loop's check phase, once the socket has had a poll to show whether the server closed it. rxgate wrote a streaming response's headers and role chunk at once, in the same turn as the run's start, so they went out before the upstream request, and the answer waited for them (`strace -f` of the gateway: client headers, then the upstream request). The writer now writes its first turn in the check phase, after the upstream request: 0.075 to 0.09 ms less added latency, streaming, in two side-by-side runs of 2,000 rounds (the headers still go out in the same turn of the loop). Two smaller cuts in the same round: each upstream's chat completions URL split once into undici's origin and path (its top-level `request(url)` parsed it again and copied its options on every call; about 5 % of the main thread's instructions per request, both modes), and the JSON answer written without Express's per-call content-type lookup and formatting (non-streaming). A body reader of our own for plain UTF-8 JSON, in place of body-parser on `/v1`, saved 2 to 3 % of the instructions per request, within the count's run-to-run spread, for 170 lines that repeat raw-body's rules: not kept. The builds before and after this round side by side (one run, 2,000 rounds, four gateways on the two cores): 0.175 ms less added latency streaming and 0.125 ms less non-streaming; runs of one build on this machine put rxgate between 0.15 and 0.45 ms above the pipe, the gap growing with the pipe's own added latency (0.43 to 0.79 ms), of which rxgate's is about 1.5× in every run.",
    '',
    "**The run's abort** (issue 26, 2026-12-02, evening). Node 20 takes about 3 µs to make an `AbortController` and its signal, and 5 µs with a listener added and removed (200,000 of each in a loop), and every run made one for its upstream calls to listen to. The built-in agents' runs are now aborted by a `RunAbort`, a `RequestAbort` (the EventEmitter the upstream call already aborted undici with) that makes an `AbortSignal` only for the work that asks for one (a tool, an MCP call); an agent of one's own still gets its signal from `createRun`. Side by side with the build before it (figure 1's rounds, the pipe beside both, five runs of 1,000 to 2,000 rounds, the last two with `npm run -s bench:compare -- fb7d9fc`): 0.01 to 0.25 ms less added latency (0.03 in both modes in the quietest run), and 2.7 to 4.4 % less of the gateway's CPU time per request in the four runs that counted it. What is left of rxgate's cost before the upstream request is spread thin: a profile of 6,000 sequential streaming requests (50 µs sampling) puts the turn from the parsed body to the upstream request at about 90 µs (the sampled profile undercounts on this machine: the phase probe, `BENCH_PHASES=1`, measures that turn at 0.15 ms at the median in the same kind of run; its shares hold), of which subscribing the operator chain down to the upstream call takes about 40, the upstream call itself (undici's `request` and ours around it) 17, the route's parsing and checks 12, and no single function more than 3.5 % of the turn (`JSON.parse` of the body the most).",
    '',
    "**Where the added latency sits** (issue 26, 2026-12-03). `BENCH_PHASES=1` loads a probe into each gateway process that times every request's phases from node:http's events and undici's diagnostics channels, with no tracer in the way. Side by side (`BENCH_PHASES=1 npm run -s bench:compare -- fb7d9fc 1500`; rxgate added 0.88 and 0.91 ms, the pipe 0.61 and 0.65), from a request's arrival to its upstream request written rxgate took 0.334 ms at the median and the pipe 0.150; from the upstream's response headers to the response finished, 0.316 and 0.225; the upstream's own answer took the same through both (0.24 and 0.26). So about two thirds of rxgate's excess is before the upstream request (the build before the run's abort: 0.366) and one third after the upstream answers. Of the first part, from the arrival to the body read takes 0.10 ms (Express's first middleware and body-parser's stream) and the handler, from the body read to the check phase where undici writes the request, 0.22 ms; a run of the probe with percentiles put that handler window at 0.10 ms in its fastest tenth and 0.17 at its median, so the same work takes longer in most requests than in the quickest, and every microsecond cut from it counts about once: 100 µs of busy loop added to the pipe's handler added 0.09 ms to its median.",
    '',
    "**The headers after the upstream request** (issue 26, 2026-12-03, morning). The probe now reports each mode apart, and the moment the upstream call is made (undici's `undici:request:create`). In a quiet side-by-side run (`BENCH_PHASES=1 npm run -s bench:compare -- b7c12e8 2000`), from a request's arrival to its upstream call rxgate took 0.17 ms non-streaming and 0.21 streaming, the pipe 0.07; from the call to the request written, 0.02 to 0.04 through both: undici writes it in the check phase after a poll, so what the handler does after the call holds it up as much as what it does before, and only work moved to a later turn of the loop stops counting. A streaming request costs rxgate 0.04 to 0.05 ms more before its upstream request than a non-streaming one (the SSE stages, the role chunk, the keepalive and first-token timers), and the upstream's answer to the response finished 0.25 to 0.28 ms against the pipe's 0.16 to 0.21. A stream's headers were built (`writeHead`: Node's `_storeHeader`, about 5 % of the handler's turn in a sampled profile) before the run was subscribed; they are now set, and Node writes them with the first frame, in the check phase after the upstream request. The time-to-first-byte histogram is observed at that first write (it was observed when the first frame was handed over, in the handler's turn: about 2.7 % of it), which is also what its help text says it measures. Side by side with the build before (four runs of 1,500 to 2,000 rounds): streaming 0.002 to 0.018 ms less added latency, non-streaming unchanged within the noise (±0.016; its path is the same). The working tree's build also read 1 to 3 % more CPU per request than the one before in those runs, and 3.3 % more in a run where the two builds were identical: bench:compare's CPU column cannot tell a change that small. A stream still names no upstream in `x-rxgate-upstream`: its headers went out before the first attempt, and now that they go out later they would name the first attempt, even when a failover then answered.",
    '',
    'Peers, as published by their makers on their own hardware (not measured here): LiteLLM 2–12 ms median added, Portkey ~2.4 ms, Bifrost ~0.44 ms.',
  ];
  return lines.join('\n');
}

function loadedLatencySection(rows: readonly LoadedLatencyRow[]): string {
  const levels = [...new Set(rows.map((row) => row.clients))];
  const targets = [...new Set(rows.map((row) => row.target))];
  const at = (clients: number, target: string) => rows.find((row) => row.clients === clients && row.target === target);
  return [
    '### Added latency against concurrent clients',
    '',
    `![Added latency against concurrent clients](${CHARTS.latency})`,
    '',
    'Streaming, an 8-delta answer timed to `[DONE]`, with 1, 16, 64 and 256 clients at once, each making its requests one after another; the targets take turns batch by batch (a batch: every client makes one request). *Added* is against the upstream reached directly at the same concurrency in the same run, so at high concurrency it includes the queueing that a third process on two shared cores causes.',
    '',
    `| Target | ${levels.map((n) => `${n} client${n === 1 ? '' : 's'}: added p50 / p99 ms`).join(' | ')} |`,
    `| --- | ${levels.map(() => '---:').join(' | ')} |`,
    ...targets.map(
      (target) =>
        `| ${target} | ${levels
          .map((n) => {
            const row = at(n, target);
            if (!row) return '';
            return target === 'upstream directly'
              ? `(${fixed(row.median, 2)} / ${fixed(row.p99, 2)} absolute)`
              : `${fixed(row.addedMedian, 2)} / ${fixed(row.addedP99, 2)}`;
          })
          .join(' | ')} |`,
    ),
  ].join('\n');
}

const range = (rates: readonly number[]) => `${Math.round(Math.min(...rates) / 1000)}k–${Math.round(Math.max(...rates) / 1000)}k`;

const nanos = (value: number) => count(Math.round(value));

/** Figure 2's table; with each process's CPU per frame, for results measured since it was. */
function throughputTable(rows: readonly ThroughputRow[], bare: ThroughputRow): string[] {
  const withCpu = rows.every((row) => row.cpuPerFrame);
  const cpu = ({ cpuPerFrame }: ThroughputRow) =>
    cpuPerFrame
      ? ` ${nanos(cpuPerFrame.relay)} | ${nanos(cpuPerFrame.relayAllThreads)} | ${nanos(cpuPerFrame.upstream)} | ${nanos(cpuPerFrame.client)} |`
      : '';
  return [
    `| Target | Median frames/s | Range over rounds | vs bare relay |${withCpu ? " Its CPU per frame, main thread (ns) | All its threads | Upstream's | Client's |" : ''}`,
    `| --- | ---: | --- | ---: |${withCpu ? ' ---: | ---: | ---: | ---: |' : ''}`,
    ...rows.map(
      (row) =>
        `| ${row.target} | ${Math.round(row.median).toLocaleString('en-US')} | ${range(row.rates)} | ${fixed(row.median / bare.median, 2)} |${withCpu ? cpu(row) : ''}`,
    ),
  ];
}

/** What one stream at 0.75× the pipe's rate asks of a gateway's CPU per frame (issue 26, goal 2b), against what each spends. */
function cpuPerFrameParagraph(rows: readonly ThroughputRow[], pipe: ThroughputRow): string {
  const budget = 1e9 / (0.75 * pipe.median);
  const spent = (target: string) => rows.find((row) => row.target === target)?.cpuPerFrame?.relay;
  const within = rows.filter((row) => row.cpuPerFrame!.relay <= budget).map((row) => row.target);
  const rx = spent('rxgate')!;
  const frameFloor = spent('frame-floor');
  return (
    "**CPU per frame.** Each process's CPU time over a stream (from the scheduler's own account, `/proc/<pid>/task/*/schedstat`), divided by the frames the client received; medians over the rounds. " +
    "Unlike frames per second, a process's CPU per frame does not move much with how the three processes happen to share the two cores. " +
    `At 0.75× the pipe's median rate in this run (${Math.round(0.75 * pipe.median).toLocaleString('en-US')} frames/s), a frame may take ${nanos(budget)} ns of the gateway's main thread at most, even with a core to itself: ` +
    `rxgate spends ${nanos(rx)} ns (${fixed(rx / budget, 1)}× that budget)` +
    (frameFloor === undefined
      ? ''
      : `, the frame floor ${nanos(frameFloor)} ns (${fixed(frameFloor / budget, 1)}×), rxgate ${fixed(rx / frameFloor, 1)}× the frame floor`) +
    `; within the budget: ${within.join(', ') || 'none'}. ` +
    "The client's CPU per frame differs between targets and runs (behind rxgate and the frame floor it reads the same bytes per frame in about as many reads): it is shown, and not part of the budget."
  );
}

function throughputSection(rows: readonly ThroughputRow[]): string {
  const rx = rowOf(rows, 'rxgate');
  const bare = rowOf(rows, 'bare');
  const pipe = rowOf(rows, 'pipe');
  const sse = rowOf(rows, 'better-sse');
  const noMetrics = rowOf(rows, 'rxgate-no-metrics');
  // Runs before the frame floor was measured have no row for it.
  const frameFloor = rows.find((row) => row.target === 'frame-floor');
  const ratio = rx.median / bare.median;
  const metricsCost = 1 - rx.median / noMetrics.median;
  const overlap =
    Math.min(Math.max(...rx.rates), Math.max(...noMetrics.rates)) >= Math.max(Math.min(...rx.rates), Math.min(...noMetrics.rates));
  return [
    '## 2. Streaming throughput',
    '',
    `Target: at least 0.8 of the bare relay, and ahead of better-sse. ${verdict(ratio >= 0.8, `${fixed(ratio, 2)} of the bare relay, ${fixed(0.8 - ratio, 2)} short`)} for the first (${fixed(ratio, 2)}); ` +
      `${verdict(rx.median > sse.median, `${fixed(rx.median / sse.median, 2)}× better-sse`)} for the second (${fixed(rx.median / sse.median, 2)}× better-sse).`,
    '',
    'One stream at a time of flat-out deltas (the upstream writes them 64 frames per write, as fast as the socket takes them); chunks (SSE frames) received per second by the client, request to last byte. The targets take turns, one stream each per round, after one unmeasured stream each.',
    '',
    ...throughputTable(rows, bare),
    '',
    `**${ratio >= 0.8 ? 'Where the time goes' : 'What holds it back'}.** ` +
      `Against the pipe floor, rxgate reaches ${fixed(rx.median / pipe.median, 2)}× its frames per second, and the bare relay, which does only the parse and re-encode that keeps rxgate's wire exact (eventsource-parser, \`JSON.parse\`, \`JSON.stringify\`, one write per frame), reaches ${fixed(bare.median / pipe.median, 2)}×: the pipe forwards the upstream's 64-frame writes untouched, so that floor is not reachable by anything that reads each frame. ` +
      (frameFloor
        ? `The frame floor, which reads each frame with no parser, no JSON and no object (and knows the upstream's bytes in advance), reaches ${fixed(frameFloor.median / pipe.median, 2)}× the pipe, and rxgate ${fixed(rx.median / frameFloor.median, 2)}× the frame floor. `
        : '') +
      "CPU profiles of rxgate on this figure (`BENCH_CPU_PROF`) put the largest self times in reading the upstream's frames and in `writev`, which the bare relay pays too, then in garbage collection and in the RxJS stages a delta still crosses (the first-token timeout, the deadline, the turn assembler, the step that continues after a turn, the output cap, metrics, the encoder, the frames stage, keepalive, the writer, `takeUntil`). " +
      "Earlier costs now gone: the writer's quadratic byte count, one write per frame, a keepalive timer re-armed per frame, inner Observables per delta; then, on issue 16: a byte-by-byte frame meter over every upstream byte (8.5 % of the gateway's CPU), a zod parse of every upstream chunk (7 %; the common shape is now checked by hand, the schema reads the rest), `JSON.stringify` of each whole chunk (14 %; the part every chunk of a completion shares is written once), the connect/merge branches that every delta crossed in the turn assembler, the agent loop, the tool-call sequencer, the encoder and the output cap (each now one subscriber), and, in the second round, the filter, tap, map, concat and end-of-stream stages fused into the stages around them (about five fewer hops a delta); then, on issue 26, `JSON.parse` of every frame that repeats the last text frame but for its text (`TextFrameTemplate` reads such a frame by comparing its bytes: 14 % fewer instructions per delta), and three costs of Node 20's own builtins: `startsWith`, which compares a 130-character prefix one character at a time (400 ns; a slice compared with `===` takes 50: 28 % fewer instructions a streaming request), `Buffer.byteLength` of every frame and of each write's concatenated frames (the writer now encodes each long write itself: 8 %), and `TextDecoder` on chunks of ASCII alone (10 ns instead of 120 a frame: 11 %). " +
      (ratio >= 0.8
        ? ''
        : 'Closing the rest of the gap needs fewer values per delta: carrying the deltas of one upstream read through the pipeline together.'),
    '',
    ...(rx.cpuPerFrame && pipe.cpuPerFrame ? [cpuPerFrameParagraph(rows, pipe), ''] : []),
    "**Stages that are their own subscribers** (issue 26, 2026-12-03). In a CPU profile of this figure (`BENCH_CPU_PROF=dir node --import tsx bench/profileThroughput.ts`, 50 µs sampling), the largest self time on a delta's path (the samples under the upstream reader's `data` handler) was RxJS's `ConsumerObserver.next`, 22.6 % of it, ahead of the SSE line reader (9.9 %), the template's byte compares (8.2 %) and the text's `JSON.stringify` (5.8 %). It is the call by which a SafeSubscriber hands a value to the Observer object it wraps, and every stage of rxgate was such an object: that one call site saw a dozen classes, a megamorphic call V8 does not inline. `npx tsx bench/hopCost.ts` puts a value through 16 stages of 16 classes in 370 to 434 ns that way, and in 42 to 52 ns when each stage is its own subscriber (an Observer that is also a Subscription, which RxJS takes as the subscriber it is, so that each stage calls the next directly, from a call site that sees one class); those figures came from stand-ins with a `next` of their own in each class, and with `OwnSubscriber`'s subclasses themselves, whose `next` they share (2026-12-03, a quieter machine, two runs): 213 to 225 ns as Observer objects, 37 to 39 as their own subscribers. Thirteen stage classes are now made so (`OwnSubscriber`, src/rx, and since issue 44 the twelve that hand values on extend its `Stage`: the first-token timeout, the attempt watch, the commit point, the turn reader, the step after a turn, the run's events, the output cap, the run's metrics, the chunk encoder, the frames stage, the chat stream's end, keepalive, and the SSE response the chain ends in), keeping what a SafeSubscriber promised (nothing after the end, the source torn down at it); the writer is not, since its end waits for a drain after its source has ended. Side by side with the build before, the first twelve made so (`npm run -s bench:compare -- HEAD 1500`, which now also runs this figure, two runs): 452,703 against 357,685 and 477,580 against 403,834 frames a second (+18 to +27 %), 1,896 against 2,337 and 1,806 against 2,113 ns of the gateway's main thread a frame (−15 to −19 %); the added latency of figure 1 the same within 0.01 ms. In the profile after it, `ConsumerObserver.next` is 3.9 % of a delta's path and the base class's `next` 6.8 %; the largest costs are now the work itself: reading the SSE lines (14 %), the template's compares (13 %), the text's `JSON.stringify` (6 %) and the keepalive's clock read on every frame (`Date.now`, 6.8 %), which keeps its timing exact. `Stage` (issue 44, 2026-12-05) forwards an error and a completion by default and starts what waits for the subscription (a timer, an end that tears a synchronous source down first) in one place; `npx tsx bench/hopCost.ts` with its subclasses, two runs: 201 to 247 ns a value as Observer objects, 39 to 44 as `Stage`s. The house's second renovation (issue 44: the moves, user operators on every API, the route files per API and `Stage`) side by side with the commit before it (`npm run -s bench:compare -- 3700287`, three runs on a shared machine): 1,020 against 999, 931 against 907 and 902 against 873 µs of CPU a request (+2.1 to +3.3 %), where the same build against itself (`-- HEAD`) reads 1,039 against 1,015 (+2.4 %: the working tree's place in the run), so within noise; 1,971 against 2,385, 1,336 against 1,966 and 1,364 against 964 ns a frame, which swings both ways by more than that; the added median latency the same within 0.03 ms.",
    '',
    "**Two builtins more** (issue 26, 2026-12-03). Node 20's `JSON.stringify` of a string takes 46 ns for a three-character text and 160 ns for a sixty-character one; testing the text for a character that needs escaping (a quote, a backslash, a control character, a surrogate) and putting it between quotes takes 23 and 57 (`jsonString`, exactly `JSON.stringify`'s output for every UTF-16 code unit, tested; used for the text of text and reasoning deltas). And `Buffer.from` of a flat 13 KB ASCII text (a write turn of 64 frames) took twice as long as `TextEncoder.encodeInto` into a buffer of one byte a character (102 against 54 ns a frame; 139 against 131 when the turn is a rope of frames, as the writer's is): the writer now encodes each long write turn that way (`encodeUtf8`; a text past ASCII gets the rest appended), which took rxgate from 23.7 M to 23.0 M instructions a 2,000-delta streaming request (`BENCH_INSTRUCTIONS_DELTAS=2000 BENCH_INSTRUCTIONS_REQUESTS=32 npm run -s bench:instructions -- rxgate`). Side by side with the build before both (`npm run -s bench:compare -- HEAD 500`, then `1000`): 1,091 against 1,154 and 1,073 against 1,108 ns of the gateway's main thread a frame (−5.5 and −3 %); 751,688 against 686,553 and 694,412 against 717,608 frames a second, within the spread of the rounds; CPU per 8-delta request and added latency the same within 1.5 %. A turn's frames are a rope of a few hundred strings, which V8 copies into one flat string before encoding it: with `writev` and garbage collection, that flattening (8 %) and the keepalive's clock (3 to 5 %) lead what a profile now shows of a delta's path.",
    '',
    "**Frames of fewer pieces, and a meter that skims** (issue 26, 2026-12-03). The part every frame of a completion shares was a template literal, which V8 keeps as a tree of concatenations (eight pieces), and every frame that tree plus a few more: a write turn's frames are copied out of all those pieces into one string before they are encoded. The shared part is now one flat string (joined), and a text delta whose text needs no escaping is three pieces (the frame up to its text, the text, the rest): 22.7 M → 19.4 M instructions a 2,000-delta streaming request (callgrind, as above), and side by side with the build before (two runs) 1,029 against 1,251 and 1,125 against 1,218 ns of the gateway's main thread a frame. The upstream frame meter (which bounds what the SSE reader may hold, `RXGATE_UPSTREAM_MAX_FRAME_BYTES`) searched for every line break of every chunk, two native searches a frame (33 ns a frame in a loop); given its limit, it now skims a chunk in which no frame can have passed it (no CR, and the frame going on plus the whole chunk within the limit), looking only for the chunk's last blank line (4.5 ns a frame), and reads line by line otherwise, exact past the limit (checked against the exact meter on 300 seeded streams cut at random): 20.0 M → 18.6 M instructions a streaming request and 13.4 M → 11.3 M a non-streaming one; side by side its change in CPU per frame was within the runs' spread (1,202 against 1,065, then 1,062 against 1,079). In a profile after both: `writev` 12 %, the SSE line reader 11 %, garbage collection 7 % (from 12 to 16), encoding the write turns 6 %, the template's compare 5 %, the keepalive's clock 5 %.",
    '',
    `**Metrics overhead.** Prometheus metrics are always on in rxgate; \`rxgate-no-metrics\` is the same app built with \`createApp({ metrics })\` given no-op metrics and no default collectors (no event-loop monitor, no GC observer). ` +
      `The medians differ by ${fixed(metricsCost * 100, 1)} % of throughput${overlap ? ', and the two ranges overlap: on this machine the cost of metrics (a timestamp and a few counter increments per response, and the size of each write) is below what the bench can resolve' : ''}.`,
  ].join('\n');
}

function tracingSection(rows: readonly TracingCostRow[]): string {
  const [off, on] = [rows.find((row) => row.tracing === 'off')!, rows.find((row) => row.tracing === 'on')!];
  return [
    '### Tracing on against off',
    '',
    `Two rxgate processes answer the same streaming requests (8 deltas) in turn, one after the other: one with tracing off (the default: no SDK loaded), one with the always-on sampler exporting every span over OTLP/HTTP JSON to a receiver on the same machine (${on.spansExported} spans exported). CPU is the gateway process's user and system time over the counted requests, from \`/proc\` (10 ms ticks), divided by their number. ` +
      `Tracing on adds ${fixed(on.median - off.median, 3)} ms to the median and ${fixed(on.cpuPerRequest - off.cpuPerRequest, 3)} ms of CPU per request.`,
    '',
    '| Tracing | Requests | Median ms | p99 ms | CPU ms per request |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (row) => `| ${row.tracing} | ${row.requests} | ${fixed(row.median, 3)} | ${fixed(row.p99, 3)} | ${fixed(row.cpuPerRequest, 3)} |`,
    ),
  ].join('\n');
}

function cancellationSection(rows: readonly CancellationRow[]): string {
  const rx = rows.filter((row) => row.target === 'rxgate');
  const worst = Math.max(...rx.map((row) => row.p99));
  const of = (target: string, phase: string) => rowOf(rows, target, (row) => row.phase === phase);
  return [
    '## 3. Cancellation latency',
    '',
    `Target: p99 under 5 ms. ${verdict(worst < 5, `by ${fixed(worst - 5, 2)} ms`)}: rxgate's p99 is ${rx.map((row) => `${fixed(row.p99, 2)} ms (${row.phase})`).join(' and ')}.`,
    '',
    "From the client's abort to the upstream seeing its socket close. The load generator and the upstream run in two processes; both take their times from the machine's monotonic clock (`process.hrtime`), which processes share. *streaming*: the upstream sends a delta every millisecond and the client aborts after reading a few. *silent*: the upstream sent its headers and nothing else; the client aborts once the request has reached it.",
    '',
    '| Phase | Target | Trials | Median ms | p99 ms | Max ms | Never reached the upstream |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (row) =>
        `| ${row.phase} | ${row.target} | ${row.trials} | ${fixed(row.median, 3)} | ${fixed(row.p99, 3)} | ${fixed(row.max, 2)} | ${row.missed} |`,
    ),
    '',
    `**${worst < 5 ? 'Where the time goes' : 'What holds it back'}.** The path is three processes on two shared cores: the gateway must be scheduled to see the client's FIN, and the upstream to see the gateway's. The bare relay, which does nothing but abort its upstream request on \`'close'\`, has a p99 of ${fixed(of('bare', 'streaming').p99, 2)} ms (streaming) and ${fixed(of('bare', 'silent').p99, 2)} ms (silent) in the same run; ` +
      `rxgate's median is within ${fixed(Math.max(of('rxgate', 'streaming').median - of('bare', 'streaming').median, of('rxgate', 'silent').median - of('bare', 'silent').median), 2)} ms of it. ` +
      "Inside the gateway the interrupt is synchronous with the `'close'` event (takeUntil unsubscribes, the run's teardown aborts the upstream request), as the integration tests show in-process; the tail here is scheduling on this machine. " +
      `Trials whose abort never reached the upstream: ${rows.reduce((sum, row) => sum + row.missed, 0)}.`,
  ].join('\n');
}

const count = (n: number) => n.toLocaleString('en-US');
const delays = (row: ConcurrencyRow) =>
  [row.openingDelay, row.streamingDelay].map((delay) => `${fixed(delay.p99, 1)} (${fixed(delay.max, 0)})`).join(' / ');
/** The fewest open at the hold of the three counts (client, gateway, upstream). */
const openAtOnce = (row: ConcurrencyRow) => Math.min(row.openAtHold.client, row.openAtHold.gateway, row.openAtHold.upstream);
const allOpen = (row: ConcurrencyRow) => openAtOnce(row) >= row.streams;
const failuresOf = (row: ConcurrencyRow) =>
  Object.entries(row.failures)
    .map(([cause, n]) => `${count(n)} ${cause}`)
    .join(', ') || 'none';

/** Why the largest size may be fewer streams than asked: the gateway's descriptor limit, the same for every target. */
function descriptorLimit(rows: readonly ConcurrencyRow[], report: Report): string {
  const cut = rows.find((row) => row.streams < row.requested);
  const limit = cut?.fileLimit ?? report.machine.nofile;
  const fixedFiles = `two descriptors per stream (the client's socket and the upstream's) and about ${OWN_FILES} of its own (the listening socket, IPC, epoll, stdio, idle upstream sockets)`;
  if (!cut)
    return `The open-file limit (\`ulimit -n\`, raised by \`npm run bench\` to 65,535 where it can, else to the hard limit) was ${limit === undefined || limit === null ? 'not recorded' : count(limit)} in this run; a gateway holds ${fixedFiles}, so every size fit.`;
  return (
    `**${count(cut.requested)} asked, ${count(cut.streams)} measured.** A gateway holds ${fixedFiles}, so ${count(cut.requested)} streams open at once need about ${count(2 * cut.requested + OWN_FILES)} descriptors in the gateway process. ` +
    `Its limit was ${count(limit ?? 0)} (\`ulimit -n\`, which \`npm run bench\` raises to 65,535 where it can, else to the hard limit; this container's hard limit is 20,000 and it may not raise it: no \`CAP_SYS_RESOURCE\`), ` +
    `so the largest size is the most that fit, (${count(limit ?? 0)} − ${OWN_FILES}) / 2 = ${count(cut.streams)}, for rxgate, the pipe floor and the bare relay alike. The limit is raised in the bench, not in the product.`
  );
}

function concurrencySection(rows: readonly ConcurrencyRow[], plan: ConcurrencyFigurePlan, report: Report): string {
  const rx = rows.filter((row) => row.target === 'rxgate');
  const ok = rx.every((row) => row.completed === row.streams && allOpen(row));
  const largest = Math.max(...rows.map((row) => row.streams));
  const big = (target: string) => rowOf(rows, target, (row) => row.streams === largest);
  return [
    '## 4. Concurrency and memory',
    '',
    `Concurrent streams, all open at the same time, at ${rx.map((row) => count(row.streams)).join(' and ')} streams. ` +
      `The load generator opens ${count(plan.openPerSecond)} streams a second, with at most ${plan.maxOpening} waiting for their first delta. ` +
      "(Opened all at once, as this bench did before, 10,000 connects overflow the gateway's listen queue: the kernel drops handshakes (`ListenOverflows` in `nstat`), SYN retransmits start streams seconds late, so that the first end before the last begin, and some are reset (`ECONNRESET`): that, not the gateways, was why streams failed and were never all open.) " +
      "The upstream sends each stream's first delta at once and then holds the stream, until the client has seen every stream's first delta; " +
      `then the bench releases them all (or after ${plan.holdMs / 1000} s, whatever is open by then), and each sends its other ${plan.deltas - 1} deltas, one every ${count(plan.everyMs)} ms, from a random point of its first ${count(plan.everyMs)} ms (so that they do not all tick together). ` +
      `*Open at the hold* counts the open streams three ways at that moment: the client's streams that had their first delta, the gateway's responses not yet closed, the upstream's held streams still open. ` +
      `Every stream must end with the exact text, \`finish_reason: "stop"\` and \`[DONE]\`. For rxgate: ${verdict(ok, 'see the table')}.`,
    '',
    descriptorLimit(rows, report),
    '',
    '| Streams | Target | Open at the hold: client / gateway / upstream | Opened in s | Completed | Failures | Finish s after the release, median (max) | Event-loop delay p99 (max) ms: opening and held / streaming |',
    '| ---: | --- | --- | ---: | ---: | --- | ---: | ---: |',
    ...rows.map(
      (row) =>
        `| ${count(row.streams)} | ${row.target} | ${count(row.openAtHold.client)} / ${count(row.openAtHold.gateway)} / ${count(row.openAtHold.upstream)} | ${fixed(row.openSeconds, 1)} | ${count(row.completed)}/${count(row.streams)} | ${failuresOf(row)} | ${fixed(row.finishMedian, 1)} (${fixed(row.finishMax, 1)}) | ${delays(row)} |`,
    ),
    '',
    "The gateway's event-loop delay is measured in two phases: from the first request to the release (*opening and held*), and from the release until the first stream ends (*streaming*: every stream open, deltas flowing). " +
      `Not after: released together, the streams all end within the same ${count(plan.everyMs)} ms, and every gateway then spends a burst closing all its sockets at once (seconds here, the pipe floor's too), which no real load has.`,
    '',
    `Planned finish after the release: at most ${fixed((plan.deltas * plan.everyMs) / 1000, 1)} s. At ${count(largest)} streams, the streaming phase asks each gateway for ${count(Math.round((largest * 1000) / plan.everyMs))} deltas a second; ` +
      `the streams finished ${fixed(big('rxgate').finishMedian, 1)} s after the release at the median through rxgate, ${fixed(big('pipe').finishMedian, 1)} s through the pipe floor and ${fixed(big('bare').finishMedian, 1)} s through the bare relay. ` +
      (big('rxgate').streamingDelay.p99 > 1.5 * big('pipe').streamingDelay.p99
        ? `While they stream, rxgate's event-loop delay p99 is ${fixed(big('rxgate').streamingDelay.p99 / big('pipe').streamingDelay.p99, 1)}× the pipe floor's: every delta costs rxgate a pass through its pipeline (the per-delta costs of figure 2), and at ${count(Math.round((largest * 1000) / plan.everyMs))} deltas a second on two shared cores its loop turns take longer than the pipe's forwarding.`
        : ''),
    '',
    'Memory is sampled in the gateway process at the hold, every stream open, after a full GC, against the same process idle, and divided by the responses open there.',
    '',
    '| Streams | Target | RSS idle → loaded MiB | Heap idle → loaded MiB | RSS per stream KiB | Heap per stream KiB |',
    '| ---: | --- | --- | --- | ---: | ---: |',
    ...rows.map(
      (row) =>
        `| ${count(row.streams)} | ${row.target} | ${mib(row.idle.rss)} → ${mib(row.loaded.rss)} | ${mib(row.idle.heapUsed)} → ${mib(row.loaded.heapUsed)} | ${kib(row.rssPerStream)} | ${kib(row.heapPerStream)} |`,
    ),
    '',
    `**What this shows.** At ${count(largest)} streams rxgate holds ${fixed(big('rxgate').heapPerStream / 1024, 1)} KiB of heap per open stream, ${fixed(big('rxgate').heapPerStream / Math.max(1, big('pipe').heapPerStream), 2)}× the pipe floor and ${fixed(big('rxgate').heapPerStream / Math.max(1, big('bare').heapPerStream), 2)}× the bare relay. ` +
      "A heap-snapshot diff of 1,000 stalled streams through rxgate (`bench/probeMemory.ts` with `PROBE_SNAPSHOTS=dir`, not part of this script) puts its live heap at about 35 KB per open stream (the pipe floor: about 25 KB; before issue 16's changes 86 KB, before its second round 58 KB, before issue 26's round 46 KB): 107 closures (the pipe's own 104), 62 contexts, 45 element stores (mostly the subscriptions' teardown lists), 8 Observables and 16 subscribers per stream, and the leak soak below shows all of it is released. Of the 10 KB over the floor, about 4.5 KB is what RxJS holds for any subscriber (a SafeSubscriber, its ConsumerObserver and a teardown list that V8 sizes for 17 entries, about 0.3 KB each), about 1.2 KB the closures' contexts and 0.8 KB the response header, which Node keeps as a chain of concatenated strings. " +
      "Issue 26 took 11 KB off: every operator on a stream's path subscribes with an object of its own (its state in fields, its methods on a class) where a literal of three closures, a teardown and their context held about 0.4 KB more; `failOverBeforeCommit` is one subscriber where a defer, a tap and a catchError held two, and `watchAttempt` one where a tap held five closures; `expressBorn` makes requests and responses with subclasses (made by a function that called the base, each response had fallen into dictionary mode: a 3 KB property table); the upstream request is aborted by an EventEmitter, which undici takes as a signal, instead of an `AbortController` (Node re-shapes every `AbortSignal` into a class of its own); and lists of listeners grow by `concat` (a spread or a push keeps room for 17). (These counts are from before thirteen stages became their own subscribers, 2026-12-03, which left them without a SafeSubscriber and a ConsumerObserver each: 31.0 KiB of heap per open stream at 9,950 streams in the last full run before it, 30.2 in the first after.)",
    '',
    '### Clients that never read (issue 23)',
    '',
    "`node --import tsx bench/probeNeverReading.ts 20 20` (not part of this script; `PROBE_GC=1` collects garbage before each sample): 20 raw sockets that never read, half asking for a streaming chat completion and half for a streaming response, each a 20 MB answer (`RXGATE_MAX_OUTPUT_CHARS` raised to 20,000,001 so that the slow-client bound, `RXGATE_MAX_BUFFERED_BYTES` 1 MiB, is what ends them), the gateway in its own process, its memory against itself idle, the kernel's socket buffers read with `ss -tm`. Two runs on 2026-12-01:",
    '',
    "| Moment | RSS | Live heap (after GC) | External (ArrayBuffers) | Kernel, gateway's send queues | Kernel, clients' receive queues |",
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    '| Peak, while the streams are being cut off | +114.5 to +123.9 MiB | +95.6 to +111.8 MiB | +0.3 to +1.6 MiB (+1.4 to +1.6) | 75.5 MiB | 2.5 MiB |',
    '| Every stream cut off | +16.3 to +20.8 MiB | +2.6 to +2.9 MiB | +0.2 MiB (+0.1) | 75.5 MiB | 2.5 MiB |',
    '',
    "Without a GC before each sample the peak reads +231 MiB RSS and +216 MiB heap, most of it garbage. Where the rest goes: the kernel takes about 3.8 MiB of each stream into the gateway's send queue (`net.ipv4.tcp_wmem` allows up to 4 MiB on this machine) before Node sees any backpressure, and keeps it after rxgate has closed the socket until the client reads or the connection times out: memory of the kernel, in no process's RSS. Inside the process, while a stream is being cut off, live heap is about 5 MiB per stream: up to 1 MiB of frames held for the client, and the answer text a run keeps until it ends (the LLM agent's current turn, which goes back to the model when the turn calls tools, and for the Responses API the response draft), which `RXGATE_MAX_OUTPUT_CHARS` bounds (1,000,000 characters by default) and which is released when the run ends. This split of the live heap is inferred from these figures, not read from a heap snapshot. Once every stream is cut off, under 3 MiB of heap is left (20 streams) and the 16 to 21 MiB of RSS over idle is heap the process has not yet returned to the system.",
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

function crossInstanceSection(result: CrossInstanceResult, plan: CrossInstancePlan): string {
  const heading = ['## 6. Several instances', ''];
  if ('skipped' in result) return [...heading, `Not measured in this run: ${result.skipped} (set \`RXGATE_BENCH_REDIS_URL\`).`].join('\n');
  const row = (setup: CrossInstanceRow['setup']) => result.rows.find((candidate) => candidate.setup === setup)!;
  const sqlite = row('sqlite');
  const redis = row('redis');
  const label = {
    sqlite: 'SQLite file, one instance (stop on the owner)',
    redis: 'Redis, two instances (run on A, stop on B)',
    'redis-cluster': 'Redis Cluster of 3 masters, two instances (run on A, stop on B)',
  };
  const cluster = result.rows.find((candidate) => candidate.setup === 'redis-cluster');
  return [
    ...heading,
    `What sharing runs through Redis costs (issue 14): two rxgate processes on the Redis at \`${plan.redisUrl}\` (a key prefix of their own, deleted afterwards), then on a Redis Cluster of three masters on this machine that the bench starts and stops (\`RXGATE_REDIS_CLUSTER\`), against one process on a SQLite file, each process started like every other target with the store the settings choose (\`RXGATE_REDIS_URL\` or \`RXGATE_DATA_DIR\`). ` +
      `*Stop*: ${plan.stopTrials} runs (after ${Math.ceil(plan.stopTrials / 10)} unmeasured), one at a time, against an upstream that is silent after its headers; from \`POST /v1/runs/{id}/stop\` to the upstream seeing the run's request socket close (with Redis, the stop is sent to the instance that does not run it). ` +
      `*Fan-out*: ${plan.followers} followers of one run of ${plan.deltas.toLocaleString('en-US')} deltas (with Redis, half on each instance), all attached before the upstream starts; events delivered per second, summed over the followers, to the last event of the last follower; *complete* counts the followers that saw every event id from 0 in order, each once.`,
    '',
    '| Setup | Stop → upstream aborted p50 ms | p99 ms | Fan-out events/s | Complete followers |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...result.rows.map(
      (r) =>
        `| ${label[r.setup]} | ${fixed(r.stopMedian, 2)} | ${fixed(r.stopP99, 2)} | ${Math.round(r.fanOut).toLocaleString('en-US')} | ${r.completeFollowers}/${plan.followers} |`,
    ),
    '',
    `**What it shows.** A stop that crosses instances takes ${fixed(Math.abs(redis.stopMedian - sqlite.stopMedian), 2)} ms ${redis.stopMedian >= sqlite.stopMedian ? 'more' : 'less'} at the median than one on the owner with SQLite: B records the stop in Redis and publishes it, A's subscriber hears it and interrupts the run. ` +
      `Fan-out through Redis delivers ${fixed(redis.fanOut / sqlite.fanOut, 2)}× the events per second of one SQLite instance: the owner writes each event once to the run's stream, and each instance's blocking reader wakes its own followers, who read the new entries with XRANGE.` +
      (cluster
        ? ` On the cluster, where one XREAD cannot watch streams in different slots, each append also publishes its last entry id on the stream's shard channel (SPUBLISH), which wakes the followers instead: stop p50 ${fixed(cluster.stopMedian, 2)} ms, fan-out ${fixed(cluster.fanOut / redis.fanOut, 2)}× one Redis's.`
        : ''),
  ].join('\n');
}

/** The goals of issue 16, each a ratio to the pipe floor measured in the same run. */
function goals(report: Report): string {
  const { latency, throughput, cancellation, concurrency } = report;
  const sizes = [...new Set(concurrency.map((row) => row.streams))].sort((a, b) => a - b);
  const conc = (target: string, streams: number) => concurrency.find((row) => row.target === target && row.streams === streams);
  const lines = ['| Goal | Target | rxgate | pipe floor | Verdict |', '| --- | --- | --- | --- | --- |'];
  for (const streams of sizes) {
    const rx = conc('rxgate', streams);
    const pipe = conc('pipe', streams);
    if (!rx || !pipe) continue;
    const heap = rx.heapPerStream / Math.max(1, pipe.heapPerStream);
    const rss = rx.rssPerStream / Math.max(1, pipe.rssPerStream);
    lines.push(
      `| 1. Memory per open stream, ${streams.toLocaleString('en-US')} streams | heap and RSS ≤ 1.5× pipe | ${kib(rx.heapPerStream)} KiB heap (${fixed(heap, 1)}×), ${kib(rx.rssPerStream)} KiB RSS (${fixed(rss, 1)}×) | ${kib(pipe.heapPerStream)} KiB heap, ${kib(pipe.rssPerStream)} KiB RSS | ${heap <= 1.5 && rss <= 1.5 ? 'met' : 'missed'} |`,
    );
  }
  const largest = sizes.at(-1);
  const rxBig = largest === undefined ? undefined : conc('rxgate', largest);
  const pipeBig = largest === undefined ? undefined : conc('pipe', largest);
  if (largest !== undefined && rxBig && pipeBig) {
    const ratio = (pick: (row: ConcurrencyRow) => Delay) => pick(rxBig).p99 / Math.max(0.001, pick(pipeBig).p99);
    const opening = ratio((row) => row.openingDelay);
    const streaming = ratio((row) => row.streamingDelay);
    const size =
      rxBig.requested > largest ? `${count(rxBig.requested)} (${count(largest)} measured: the descriptor limit, see 4)` : count(largest);
    const met = allOpen(rxBig) && rxBig.completed === largest && opening <= 1.5 && streaming <= 1.5;
    lines.push(
      `| 2. ${size} concurrent streams | all open at once, all complete right, loop p99 ≤ 1.5× pipe | ${count(openAtOnce(rxBig))} open at once, ${count(rxBig.completed)}/${count(largest)} complete, loop p99 ${fixed(rxBig.openingDelay.p99, 1)} ms opening and held (${fixed(opening, 2)}×), ${fixed(rxBig.streamingDelay.p99, 1)} ms streaming (${fixed(streaming, 2)}×) | ${count(openAtOnce(pipeBig))} open, ${count(pipeBig.completed)}/${count(largest)}, ${fixed(pipeBig.openingDelay.p99, 1)} ms, ${fixed(pipeBig.streamingDelay.p99, 1)} ms | ${met ? 'met' : 'missed'} |`,
    );
  }
  const added = (target: string, mode: LatencyRow['mode']) => rowOf(latency, target, (row) => row.mode === mode).addedMedian;
  if (latency.some((row) => row.target === 'pipe')) {
    const over = (mode: LatencyRow['mode']) => added('rxgate', mode) - added('pipe', mode);
    const modes = ['streaming', 'non-streaming'] as const;
    lines.push(
      `| 3. Added latency, median (one client; issue 26: streaming and non-streaming) | ≤ pipe + 0.3 ms | ${modes.map((mode) => `${fixed(added('rxgate', mode), 2)} ms ${mode} (pipe + ${fixed(over(mode), 2)}, ${fixed(added('rxgate', mode) / added('pipe', mode), 2)}× what the pipe adds)`).join(', ')} | ${modes.map((mode) => `${fixed(added('pipe', mode), 2)} ms`).join(', ')} | ${modes.every((mode) => over(mode) <= 0.3) ? 'met' : 'missed'} |`,
    );
  }
  if (throughput.some((row) => row.target === 'pipe')) {
    const pipe = rowOf(throughput, 'pipe').median;
    const ratio = rowOf(throughput, 'rxgate').median / pipe;
    const frameFloor = throughput.find((row) => row.target === 'frame-floor');
    const rxCpu = rowOf(throughput, 'rxgate').cpuPerFrame;
    const cpuNote = rxCpu
      ? `; ${nanos(rxCpu.relay)} ns of its main thread a frame, where 0.75× the pipe allows ${nanos(1e9 / (0.75 * pipe))}`
      : '';
    const floorNote = frameFloor ? `; the frame floor ${fixed(frameFloor.median / pipe, 2)}×${cpuNote}, see figure 2` : '';
    lines.push(
      `| 4. One stream's throughput | ≥ 0.75× pipe | ${Math.round(rowOf(throughput, 'rxgate').median).toLocaleString('en-US')} frames/s (${fixed(ratio, 2)}×${floorNote}) | ${Math.round(pipe).toLocaleString('en-US')} frames/s | ${ratio >= 0.75 ? 'met' : 'missed'} |`,
    );
  }
  if (cancellation.some((row) => row.target === 'pipe')) {
    const worst = (target: string) => Math.max(...cancellation.filter((row) => row.target === target).map((row) => row.p99));
    lines.push(
      `| 5. Cancellation p99 (worst phase) | at the floor: under 5 ms or within 2 ms of the pipe's p99 (scheduling on two shared cores) | ${fixed(worst('rxgate'), 2)} ms | ${fixed(worst('pipe'), 2)} ms | ${worst('rxgate') < 5 || worst('rxgate') <= worst('pipe') + 2 ? 'met' : 'missed'} |`,
    );
  }
  return lines.join('\n');
}

function summary(report: Report): string {
  const { latency, throughput, cancellation, concurrency, soak } = report;
  const added = (mode: string, target: string) => fixed(rowOf(latency, target, (row) => row.mode === mode).addedMedian, 2);
  const rate = (target: string) => rowOf(throughput, target).median;
  const cancel = (target: string) => Math.max(...cancellation.filter((row) => row.target === target).map((row) => row.p99));
  const largest = Math.max(...concurrency.map((row) => row.streams));
  const big = (target: string) => rowOf(concurrency, target, (row) => row.streams === largest);
  const heapDelta = (soak.after.heapUsed - soak.before.heapUsed) / 1024 / 1024;
  const leftovers = total(soak.after.resources) - total(soak.before.resources);
  return [
    '| Figure | Target | rxgate | bare relay | Verdict |',
    '| --- | --- | --- | --- | --- |',
    `| 1. Added latency, median | < 0.5 ms | ${added('streaming', 'rxgate')} ms streaming, ${added('non-streaming', 'rxgate')} ms non-streaming | ${added('streaming', 'bare')} ms, ${added('non-streaming', 'bare')} ms | ${Math.max(Number(added('streaming', 'rxgate')), Number(added('non-streaming', 'rxgate'))) < 0.5 ? 'met' : 'missed'} |`,
    `| 2. Streaming throughput | ≥ 0.8× bare, > better-sse | ${fixed(rate('rxgate') / rate('bare'), 2)}× bare, ${fixed(rate('rxgate') / rate('better-sse'), 2)}× better-sse | 1.00 | ${rate('rxgate') / rate('bare') >= 0.8 && rate('rxgate') > rate('better-sse') ? 'met' : 'missed'} |`,
    `| 3. Cancellation, p99 (worst phase) | < 5 ms | ${fixed(cancel('rxgate'), 2)} ms | ${fixed(cancel('bare'), 2)} ms | ${cancel('rxgate') < 5 ? 'met' : 'missed'} |`,
    `| 4. ${count(largest)} concurrent streams | all open at once, all complete, right bytes | ${count(openAtOnce(big('rxgate')))} open at once, ${count(big('rxgate').completed)}/${count(largest)} complete, ${fixed(big('rxgate').heapPerStream / 1024, 1)} KiB heap/stream | ${count(openAtOnce(big('bare')))} open at once, ${count(big('bare').completed)}/${count(largest)}, ${fixed(big('bare').heapPerStream / 1024, 1)} KiB | ${allOpen(big('rxgate')) && big('rxgate').completed === largest ? 'met' : 'missed'} |`,
    `| 5. Leak soak, ${soak.aborted.toLocaleString('en-US')} aborts | heap within a few MB, nothing left, every abort upstream | ${heapDelta >= 0 ? '+' : ''}${fixed(heapDelta, 2)} MiB, ${Math.max(0, leftovers)} resources left, ${soak.unseen} aborts unseen | | ${Math.abs(heapDelta) < 5 && leftovers <= 0 && soak.unseen === 0 ? 'met' : 'missed'} |`,
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
      'The machine is shared and noisy (other work ran on it during this run): compare the rows of one table with each other (they were measured side by side, interleaved), not with another run. ' +
      'Each gateway process runs the product compiled with `tsc` (`bench/buildGateway.ts`), as `npm run build` ships it, not under tsx.' +
      (report.quick ? ' **This is a quick run (BENCH_QUICK=1): too small to quote.**' : ''),
    '',
    'Everything runs on 127.0.0.1, in separate Node processes: the load generator (undici `request`, a real HTTP client), a lean scripted OpenAI-compatible upstream (`bench/benchUpstream.ts`, told by each request what to play), and each thing under test:',
    '',
    '- **rxgate**: `createApp` with `createLlmAgent` pointed at the upstream, no tools, default settings, silent logger, Prometheus metrics on, the server settings of `startServer`.',
    '- **rxgate-no-metrics**: the same with no-op metrics (throughput only).',
    "- **pipe**: the floor, the least a Node relay can do: `node:http` in, undici `request` out, the upstream's bytes piped to the client untouched (no parsing, no re-encoding), the upstream request destroyed when the client leaves (`bench/pipeRelay.ts`).",
    "- **frame-floor**: the least a relay that reads each frame can do (figure 2 only): it splits the upstream's SSE into frames and writes each text frame anew around its text by comparing bytes with the bench upstream's fixed frame (no SSE parser, no JSON, no object per frame), one write per upstream read, with rxgate's fastest string handling (ASCII chunks decoded without `TextDecoder`, slices compared with `===`, each write encoded once) (`bench/frameFloorRelay.ts`). It knows the upstream's bytes in advance, as no gateway can: a bound, not a peer.",
    '- **bare**: a `node:http` relay that parses the upstream SSE with eventsource-parser, re-serialises each frame and writes it; nothing else (`bench/bareRelay.ts`).',
    '- **better-sse**: the same relay pushing each frame with better-sse `session.push` (which adds `event:` and `id:` lines) (`bench/betterSseRelay.ts`).',
    '',
    'To reproduce: `npm ci && npm run bench` (several minutes; `npm run bench -- --quick` or `BENCH_QUICK=1` for a smoke run under a minute, `BENCH_STREAMS=1000,5000` and `BENCH_SOAK=20000` to change the sizes of figures 4 and 5, `npx tsx bench/latencyAlone.ts 2000` to run figure 1 alone for rxgate and the pipe (its rows as JSON), `npm run -s bench:compare -- <git ref> 2000` to run figure 1 alone for rxgate as in the working tree, rxgate as committed at that ref (the build before a change, say) and the pipe, side by side (each round starting one target further on), with the CPU time per request of each, then figure 2 for the three (its rows as JSON), `npx tsx bench/hopCost.ts` for what a value costs to cross 16 stages of 16 classes, as Observer objects and as their own subscribers, `npm run -s bench:concurrency > rows.json` to run figure 4 alone at its full size (its rows as JSON), `npx tsx bench/tracingAlone.ts 1000` to run the tracing figure alone (its rows as JSON), `npm run -s bench:routing 500` to run the routing figure alone (its rows as JSON), `npx tsx bench/idempotencyAlone.ts 500` to run the Idempotency-Key figure alone (its rows as JSON), `npm run -s bench:messages 20` to run the Messages figure alone (its rows as JSON), `npx tsx bench/socketRolloutAlone.ts 30` to run the WebSocket rollout figure alone (its rows as JSON), `npm run -s bench:overload` and `npm run -s bench:cpu` (`BENCH_CPU_REQUESTS` requests a round, default 1,600) to run figures 7 and 8 alone, `BENCH_RENDER_ONLY=1` to re-render this file from `bench/results.json`, `BENCH_PHASES=1` to have each gateway process print the medians of the phases of its requests, streaming and not, to stderr when it stops (sequential requests: figure 1, `bench:compare`), `BENCH_CPU_PROF=dir` to write a CPU profile of each gateway process (sampled every 50 µs), `RXGATE_BENCH_REDIS_URL` for the Redis of figure 6, default `redis://127.0.0.1:6379/0`).',
    '',
    `Plan of this run: \`${JSON.stringify(report.plan)}\``,
    '',
    '## Goals (issue 16): ratios to the pipe floor',
    '',
    goals(report),
    '',
    `![Memory per open stream against streams open at once](${CHARTS.memory})`,
    '',
    '## Summary',
    '',
    summary(report),
    '',
    latencySection(report.latency),
    '',
    ...(report.loadedLatency ? [loadedLatencySection(report.loadedLatency), ''] : []),
    throughputSection(report.throughput),
    '',
    cancellationSection(report.cancellation),
    '',
    ...(report.tracingCost ? [tracingSection(report.tracingCost), ''] : []),
    ...(report.routingCost ? [routingSection(report.routingCost), ''] : []),
    ...(report.idempotencyCost ? [idempotencySection(report.idempotencyCost), ''] : []),
    ...(report.messagesCost ? [messagesSection(report.messagesCost), ''] : []),
    ...(report.socketRollout ? [socketRolloutSection(report.socketRollout), ''] : []),
    concurrencySection(report.concurrency, report.plan.concurrency as ConcurrencyFigurePlan, report),
    '',
    soakSection(report.soak),
    '',
    ...(report.crossInstance ? [crossInstanceSection(report.crossInstance, report.plan.crossInstance as CrossInstancePlan), ''] : []),
    ...(report.overload ? [overloadSection(report.overload, report.plan.overload as OverloadPlan, RECOMMENDED_LIMIT_MS), ''] : []),
    ...(report.cpu ? [cpuSection(report.cpu, report.plan.cpu as CpuPlan), ''] : []),
  ].join('\n');
}
