import { subscribe } from 'node:diagnostics_channel';
import { Server } from 'node:http';
import { median } from './stats.js';

// Loaded into a gateway process with `--import` when `BENCH_PHASES=1` (see launchGateway): times
// the phases of each request from node:http's events and undici's diagnostics channels, with no
// tracer in the way (strace slows every system call, and so the phases that make more of them),
// and prints their medians over the second half of the requests (the first half warms up) to
// stderr when the process exits. Meant for sequential requests (figure 1): with several in flight,
// an upstream event cannot be told apart from another request's. The pipe streams the body to the
// upstream, so it reads the body only as the upstream request goes out: its first phases overlap.

interface Phases {
  readonly arrived: number;
  /** Answered as SSE, or not: known once the response has finished. */
  streaming?: boolean;
  bodyRead?: number;
  checkPhase?: number;
  upstreamCalled?: number;
  upstreamSent?: number;
  upstreamHeaders?: number;
  finished?: number;
}

type Instant = Exclude<keyof Phases, 'streaming'>;

const PHASES: readonly (readonly [name: string, from: Instant, to: Instant])[] = [
  ['request to its body read', 'arrived', 'bodyRead'],
  ['body read to the check phase after it', 'bodyRead', 'checkPhase'],
  ['request to the upstream call', 'arrived', 'upstreamCalled'],
  ['upstream call to its request written', 'upstreamCalled', 'upstreamSent'],
  ['request to the upstream request written', 'arrived', 'upstreamSent'],
  ['upstream request to its response headers', 'upstreamSent', 'upstreamHeaders'],
  ['upstream response headers to the response finished', 'upstreamHeaders', 'finished'],
  ['request to the response finished', 'arrived', 'finished'],
];

const done: Phases[] = [];
let current: Phases | undefined;

const emit = Server.prototype.emit;
Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
  if (event === 'request') {
    const [req, res] = args as [NodeJS.ReadableStream, NodeJS.EventEmitter];
    const phases: Phases = { arrived: performance.now() };
    current = phases;
    // Listening before the server's own handlers: told first, and queued first in the check phase.
    req.once('end', () => {
      phases.bodyRead = performance.now();
      setImmediate(() => (phases.checkPhase = performance.now()));
    });
    res.once('finish', () => {
      phases.finished = performance.now();
      // The head as written: a relay may pass the upstream's headers to `writeHead`, which `getHeader` does not see.
      const head = (res as unknown as { _header: string | null })._header ?? '';
      phases.streaming = /^content-type: text\/event-stream/im.test(head);
      done.push(phases);
    });
  }
  return Reflect.apply(emit, this, [event, ...args]) as boolean;
} as typeof Server.prototype.emit;

const stamp = (phase: 'upstreamCalled' | 'upstreamSent' | 'upstreamHeaders') => () => {
  if (current !== undefined) current[phase] ??= performance.now();
};
subscribe('undici:request:create', stamp('upstreamCalled'));
subscribe('undici:client:sendHeaders', stamp('upstreamSent'));
subscribe('undici:request:headers', stamp('upstreamHeaders'));

const mediansOf = (counted: readonly Phases[]) =>
  Object.fromEntries(
    PHASES.map(([name, from, to]) => {
      const spans = counted.flatMap((phases) => {
        const [start, end] = [phases[from], phases[to]];
        return start === undefined || end === undefined ? [] : [end - start];
      });
      return [name, Number(median(spans).toFixed(3))];
    }),
  );

process.once('exit', () => {
  const counted = done.slice(Math.floor(done.length / 2));
  for (const streaming of [false, true]) {
    const ofMode = counted.filter((phases) => phases.streaming === streaming);
    // The gateway's kind, and the build it runs (the working tree's, or `buildGatewayAt`'s).
    const line = {
      phases: process.argv[2],
      build: process.argv[1],
      mode: streaming ? 'streaming' : 'non-streaming',
      requests: ofMode.length,
      medianMs: mediansOf(ofMode),
    };
    process.stderr.write(`${JSON.stringify(line)}\n`);
  }
});
