import { CHARTS } from './charts.js';
import type { CpuPlan, CpuRow } from './cpuPerRequest.js';
import { fixed } from './stats.js';

// Measured once (2026-12-01, issue 26), not by this script: what the numbers above are made of.
const WHERE_IT_GOES = [
  '**Where the CPU goes** (issue 26, measured 2026-12-01 on this machine under a load average of 14 to 18 on its 2 cores, so as shares, not times). ' +
    '*System calls* (`strace -c -f` on each gateway process over 800 requests, 16 clients, after 200 warm ones; counts do not depend on the load): per streaming request the pipe makes 2 `read`, 2 `write` and 2 `writev`, rxgate 2 `read` and 3 `writev`; non-streaming, the pipe 2 `read`, 1 `write`, 2 `writev`, rxgate 2 `read` and 2 `writev`. ' +
    'rxgate makes no more system calls than the pipe (its writer already sends what one turn produced as one write, and the headers with the first bytes): the gap is all JavaScript in user space, not I/O. ' +
    '*CPU profile* (`BENCH_CPU_PROF`, rxgate alone, 6,000 streaming requests, 16 clients; self time as a share of the busy samples): ' +
    "Node's own HTTP, stream and event code about 20 %, rxgate's code 14 % (the upstream SSE reader `upstreamChunks` 2.7 %, the chat route 1.6 %, `serveSse` 1.6 %, the writer 0.8 %, the rest under 0.6 % a file), " +
    'garbage collection 8 %, undici 7 %, RxJS 5 %, Express and its router 3.7 %, body-parser and its helpers 2 %, prom-client 1.1 %, zod 0.1 %; ' +
    'the native `writev` shows as 30 %, which the system-call count (8 µs a call, 3 calls a request) says cannot be CPU: most likely the sampler charging to that call the time the process waited for a core. ' +
    "No one layer dominates: halving the CPU per request means doing less per request in Node's HTTP server itself (fewer objects per request and response, fewer listeners), not removing one library.",
].join('');

// Measured (2026-12-01 and 02, issue 26) with `npm run bench:instructions`, not by this script.
const BY_INSTRUCTIONS = [
  '**Instructions per request** (issue 26, measured 2026-12-01 with `npm run bench:instructions`): each gateway under `valgrind --tool=callgrind`, 16 clients, 400 unmeasured then 400 measured 8-delta requests, ' +
    "the instructions its main thread executed between two `callgrind_control --dump`s divided by the requests. Unlike CPU time, the count does not move with the machine's load, so a change of a few per cent shows. " +
    'Before: rxgate 2.00 M a streaming request (2.35× the pipe, 0.85 M) and 1.91 M a non-streaming one (3.17× the pipe, 0.60 M). ' +
    "Serving `POST /v1/chat/completions` and `POST /v1/responses` without Express's router (`serveHotRoutes`, the same middleware in the same order) took that to 1.93 M and 1.60 M (2.27× and 2.65×; repeated runs of one build differ by up to 8 %). " +
    "Making each request and response with Express's prototypes from the start (`expressBorn`: a server's `IncomingMessage`/`ServerResponse` options), so that Express's own `setPrototypeOf` no longer re-shapes both on every request, took rxgate to 1.41 M and 1.07 M (1.87× and 1.75× the pipe in the same run). " +
    "(It was first taken back out because `test/http/serving/overload.test.ts` then hung under heavy load; the hang was the test's: on a loaded machine its first stream was itself shed, a turn past the test's 50 ms limit before anything was blocked, and it waited for a run that never started.) " +
    "After the memory round of 2026-12-02 (operators subscribing with objects instead of closures, figure 4): 1.46 M and 1.07 M, 1.63× and 1.54× the pipe, which measured 0.90 M and 0.69 M in that run (the pipe's own count moved between 0.75 M and 1.00 M a streaming request over three runs: how many frames one read brings changes the work per request). " +
    'Per delta, with `BENCH_INSTRUCTIONS_DELTAS=2000` (32 requests of 2,000 deltas): the pipe 1.5 k instructions, rxgate about 30 k (60.9 M a streaming request, 49.6 M a non-streaming one). `JSON.parse` alone of one upstream chunk (156 bytes) takes about 1 µs on this machine. ' +
    'Reading a frame that repeats the last text frame byte for byte but for its text without parsing it (`TextFrameTemplate`, 2026-12-02: vLLM, llama.cpp and Ollama send such frames) took rxgate to 52.5 M and 41.3 M (26 k a delta) in the same run. ' +
    "Reading OpenAI's frames the same way, which end with an `obfuscation` padding of random length that rxgate does not read (2026-12-02): counted by callgrind (the difference between reading 200 and 800 rounds of 1,000 such frames and turning them into chunks, over 600,000), 24.8 k instructions a frame before (nearly every frame parsed) and 12.4 k after; vLLM's frames 6.5 k before and after. " +
    "Three builtins of Node 20 turned out to cost more than the work around them (2026-12-02, same measure, rxgate alone; the frame floor, which used the first two, was changed alike): `startsWith` compares one character at a time (400 ns for the bench upstream's 130-character frame prefix, where a slice compared with `===` takes 50), which `TextFrameTemplate` did for every frame: 51.0 M → 36.9 M a streaming request and 35.4 M → 21.7 M a non-streaming one. A string write makes Node measure the string for its chunk size, which for a write turn of concatenated frames costs more than encoding it, and the byte count measured every frame again: the writer now encodes each write of 4 KB or more itself (a shorter one stays a string, so that no write a stalled client holds keeps a slab of Node's buffer pool alive) and counts its bytes, 36.9 M → 34.0 M streaming. `TextDecoder` takes about 120 ns to decode a 150-byte frame, `isAscii` and `toString('latin1')` 10 (`StreamTextDecoder`, exactly TextDecoder's output otherwise): 33.9 M → 30.2 M streaming and 22.1 M → 16.5 M non-streaming, 15 k and 8 k instructions a delta; the frame floor 10.2 M (5 k a frame), the pipe 3.0 M. " +
    "What remains per delta is the re-encoding (`JSON.stringify` of the text) and the RxJS stages a delta crosses, while the pipe forwards a whole frame in under 1 µs at its median throughput: a gateway that reads what it relays cannot come near the pipe's frames per second (figure 2).",
].join('');

/** The CPU-per-request figure of BENCHMARKS.md (issue 26, goal 1: at most 2× the pipe floor). */
/** Measured once, side by side with the build before (not re-measured by a run of the bench). */
const ISSUES_45_46_SIDE_BY_SIDE =
  "**The last pieces of issues 45 and 46, side by side** (2026-12-07). An upstream of kind `anthropic` (the upstream's SSE body read by `streamChunks` over each wire's `EventReader`, one call and one small object more a call), hosted tools mapped to server tools, Chat Completions custom tools and the WebSocket bounds, against the build before them (`npm run -s bench:compare -- eca1ec3 1500`): 1,097 against 1,094 µs of the gateway's CPU a request (+0.3 %, within what the same build reads against itself); added median latency 0.69 against 0.69 ms non-streaming and 0.68 against 0.70 streaming; 641,984 against 380,748 frames a second, a figure that swings by more than that between runs on this shared machine.";

export function cpuSection(rows: readonly CpuRow[], plan: CpuPlan): string {
  const of = (target: string, mode: CpuRow['mode']) => rows.find((row) => row.target === target && row.mode === mode);
  const ratio = (target: string, mode: CpuRow['mode']) => {
    const row = of(target, mode);
    const pipe = of('pipe', mode);
    return row && pipe ? row.cpuMicrosPerRequest / pipe.cpuMicrosPerRequest : Number.NaN;
  };
  const met = ratio('rxgate', 'streaming') <= 2 && ratio('rxgate', 'non-streaming') <= 2;
  return [
    '## 8. CPU per request',
    '',
    `Target (issue 26, goal 1): at most 2× the pipe floor, streaming and non-streaming. ${met ? '**met**' : '**missed**'}: rxgate ${fixed(ratio('rxgate', 'streaming'), 2)}× streaming, ${fixed(ratio('rxgate', 'non-streaming'), 2)}× non-streaming.`,
    '',
    `Each gateway process's own CPU time (user and system: \`process.cpuUsage()\`, and \`/proc/<pid>/stat\` for Portkey, which the bench does not start itself) divided by the requests it answered: ${plan.clients} clients at once, each making its requests one after another, an 8-delta answer; ${plan.requests.toLocaleString('en-US')} requests a round, the targets taking turns round by round, the median of ${plan.rounds} rounds after one unmeasured. CPU time does not grow, as time on the clock does, when other processes take the cores. **Portkey**: the gateway from npm (\`@portkey-ai/gateway\` 1.15.2, its own \`start-server.js\`, headless, pointed at the bench upstream with \`x-portkey-provider: openai\` and \`x-portkey-custom-host\`), non-streaming only: its streaming path throws on Node 20.`,
    '',
    `![CPU per request](${CHARTS.cpu})`,
    '',
    '| Target | Mode | CPU µs per request | × pipe | Rounds |',
    '| --- | --- | ---: | ---: | --- |',
    ...rows.map(
      (r) =>
        `| ${r.target} | ${r.mode} | ${Math.round(r.cpuMicrosPerRequest).toLocaleString('en-US')} | ${fixed(ratio(r.target, r.mode), 2)} | ${r.rounds.map((us) => Math.round(us)).join(', ')} |`,
    ),
    '',
    WHERE_IT_GOES,
    '',
    BY_INSTRUCTIONS,
    '',
    ISSUES_45_46_SIDE_BY_SIDE,
  ].join('\n');
}
