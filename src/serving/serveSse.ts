import type { Request, Response } from 'express';
import type { MonoTypeOperatorFunction, Observable, SchedulerLike } from 'rxjs';
import { ClientGoneError } from '../errors/ClientGoneError.js';
import { SlowClientError } from '../errors/SlowClientError.js';
import type { Metrics } from '../metrics/createMetrics.js';
import { OwnSubscriber } from '../rx/OwnSubscriber.js';
import { KEEPALIVE_FRAME } from '../sse/keepalive.js';
import { SSE_HEADERS } from '../sse/sseHeaders.js';
import type { Lifecycle } from './lifecycle.js';
import { localsOf, routeOf } from './requestLocals.js';
import { responseEnd$ } from './responseEnd.js';
import { outcomeOfInterrupt, type Served } from './served.js';
import { ssePipeline } from '../pipeline/ssePipeline.js';
import type { SseProtocol } from '../pipeline/sseProtocol.js';

const SSE_HEADER_ENTRIES = Object.entries(SSE_HEADERS);

export interface ServeSseOptions<In, Out> {
  readonly lifecycle: Lifecycle;
  readonly metrics: Metrics;
  readonly keepaliveMs: number;
  readonly maxBufferedBytes: number;
  readonly events?: MonoTypeOperatorFunction<In>;
  readonly chunks?: MonoTypeOperatorFunction<Out>;
  readonly scheduler?: SchedulerLike;
}

/**
 * One SSE response being written: what it counts and how it ends, for every open stream. The
 * chain's last subscriber, which hands nothing on: an `OwnSubscriber`, not a `Stage`.
 */
class SseResponse extends OwnSubscriber<string> {
  /** The response must end before the run does (`responseEnd$`). */
  ended = false;
  /** The run failed (the protocol's failure frame tells the client). */
  failed = false;
  /** How it went, once the response is over. */
  readonly served: Promise<Served>;
  /** A frame has been handed over: the headers go out with it. */
  started = false;
  // Counted per write and added to the metrics once, when the response is over.
  bytes = 0;
  private keepalives = 0;
  private readonly keepaliveFrame: string;
  private resolveServed!: (served: Served) => void;

  constructor(
    private readonly res: Response,
    private readonly lifecycle: Lifecycle,
    private readonly metrics: Metrics,
    private readonly protocol: Pick<SseProtocol<unknown, unknown>, 'serverEnded' | 'keepaliveFrame'>,
    private readonly route: string,
  ) {
    super();
    this.keepaliveFrame = protocol.keepaliveFrame ?? KEEPALIVE_FRAME;
    this.served = new Promise((resolve) => (this.resolveServed = resolve));
  }

  protected onNext(frame: string): void {
    this.started = true;
    if (frame === this.keepaliveFrame) this.keepalives++;
  }

  /** Counts a write; the first is the response's first byte. */
  wrote(bytes: number): void {
    if (this.bytes === 0) this.metrics.timeToFirstByte.observe((performance.now() - localsOf(this.res).startedAt) / 1000);
    this.bytes += bytes;
  }

  protected onComplete(): void {
    const { res, lifecycle } = this;
    if (!this.ended) {
      res.end();
      this.resolve({ outcome: this.failed ? 'error' : 'completed' });
      return;
    }
    const reason = lifecycle.cancellation.reason;
    if (!res.destroyed && this.protocol.serverEnded) res.write(this.protocol.serverEnded(reason));
    res.end();
    this.resolve({ outcome: outcomeOfInterrupt(reason), interruptReason: reason });
  }

  protected onError(error: unknown): void {
    const { res, metrics } = this;
    res.destroy();
    if (error instanceof SlowClientError) metrics.slowClientCutoffs.inc();
    if (error instanceof SlowClientError || error instanceof ClientGoneError) {
      const reason = this.lifecycle.cancellation.reason;
      this.resolve({ outcome: outcomeOfInterrupt(reason), interruptReason: reason });
      return;
    }
    localsOf(res).logger.error({ err: error }, 'stream failed');
    this.resolve({ outcome: 'error' });
  }

  private resolve(fields: Omit<Served, 'bytes' | 'usage'>): void {
    const { metrics, route } = this;
    metrics.bytesWritten.inc({ route }, this.bytes);
    metrics.keepalives.inc({ route }, this.keepalives);
    this.resolveServed({ usage: this.lifecycle.usage, bytes: this.bytes, ...fields });
  }
}

/**
 * Answers with `source$` as SSE through the one pipeline, and resolves, once the response is
 * over, to how it went: the outcome, the interrupt reason, the usage, the bytes written. Records
 * bytes, keepalives, slow-client compactions and cut-offs, and the time to first byte.
 */
export function serveSse<In, Out>(
  req: Request,
  res: Response,
  source$: Observable<In>,
  protocol: SseProtocol<In, Out>,
  options: ServeSseOptions<In, Out>,
): Promise<Served> {
  const { lifecycle, metrics } = options;
  const locals = localsOf(res);
  const route = routeOf(req);
  const { cancellation } = lifecycle;
  // Set, not written: Node writes them with the first frame, after the upstream request the
  // subscription below sets going (see `writeTo`), so building them does not hold that request up.
  res.statusCode = 200;
  for (const [name, value] of SSE_HEADER_ENTRIES) res.setHeader(name, value);

  const response = new SseResponse(res, lifecycle, metrics, protocol, route);
  const frames$ = ssePipeline(source$, protocol, {
    keepaliveMs: options.keepaliveMs,
    maxBufferedBytes: options.maxBufferedBytes,
    events: options.events,
    chunks: options.chunks,
    scheduler: options.scheduler,
    sink: res,
    cancellation,
    clientClose$: responseEnd$(res, lifecycle, metrics, () => (response.ended = true)),
    onFailure: (error) => {
      response.failed = true;
      // The client reads the cause in the protocol's failure frame; the operator reads it here.
      locals.logger.warn({ err: error }, 'run failed');
    },
    onCompact: () => metrics.slowClientCompactions.inc(),
    onWrite: (bytes) => response.wrote(bytes),
  });
  frames$.subscribe(response);
  // A protocol that hands over a frame at once (the role chunk) sends the headers with it, in one
  // write; one that waits (a follower of a quiet run) sends them now, so the client is not left waiting.
  if (!response.started && !res.writableEnded && !res.destroyed) res.flushHeaders();
  return response.served;
}
