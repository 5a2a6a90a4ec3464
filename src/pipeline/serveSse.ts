import type { Request, Response } from 'express';
import type { MonoTypeOperatorFunction, Observable, SchedulerLike } from 'rxjs';
import { ClientGoneError } from '../errors/ClientGoneError.js';
import { SlowClientError } from '../errors/SlowClientError.js';
import type { Metrics } from '../metrics/createMetrics.js';
import { KEEPALIVE_FRAME } from '../sse/keepalive.js';
import { SSE_HEADERS } from '../sse/sseHeaders.js';
import type { Lifecycle } from './lifecycle.js';
import { localsOf, routeOf } from './requestLocals.js';
import { responseEnd$ } from './responseEnd.js';
import { outcomeOfInterrupt, type Served } from './served.js';
import { ssePipeline } from './ssePipeline.js';
import type { SseProtocol } from './sseProtocol.js';

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
  const { startedAt } = locals;
  const route = routeOf(req);
  const { cancellation } = lifecycle;
  res.writeHead(200, SSE_HEADERS);

  let firstByte = true;
  let failed = false;
  let ended = false;
  // Counted here and added to the metrics once, when the response is over: not per frame.
  let bytes = 0;
  let keepalives = 0;
  const served = (fields: Omit<Served, 'bytes' | 'usage'>): Served => {
    metrics.bytesWritten.inc({ route }, bytes);
    metrics.keepalives.inc({ route }, keepalives);
    return { usage: lifecycle.usage, bytes, ...fields };
  };

  const frames$ = ssePipeline(source$, protocol, {
    keepaliveMs: options.keepaliveMs,
    maxBufferedBytes: options.maxBufferedBytes,
    events: options.events,
    chunks: options.chunks,
    scheduler: options.scheduler,
    sink: res,
    cancellation,
    clientClose$: responseEnd$(res, lifecycle, metrics, () => (ended = true)),
    onFailure: (error) => {
      failed = true;
      // The client reads the cause in the protocol's failure frame; the operator reads it here.
      locals.logger.warn({ err: error }, 'run failed');
    },
    onCompact: () => metrics.slowClientCompactions.inc(),
  });
  const served$ = new Promise<Served>((resolve) => {
    frames$.subscribe({
      next: (frame) => {
        if (firstByte) metrics.timeToFirstByte.observe((performance.now() - startedAt) / 1000);
        firstByte = false;
        bytes += Buffer.byteLength(frame);
        if (frame === KEEPALIVE_FRAME) keepalives++;
      },
      complete: () => {
        if (!ended) {
          res.end();
          resolve(served({ outcome: failed ? 'error' : 'completed' }));
          return;
        }
        const reason = cancellation.reason;
        if (!res.destroyed && protocol.serverEnded) res.write(protocol.serverEnded(reason));
        res.end();
        resolve(served({ outcome: outcomeOfInterrupt(reason), interruptReason: reason }));
      },
      error: (error: unknown) => {
        res.destroy();
        if (error instanceof SlowClientError) metrics.slowClientCutoffs.inc();
        if (error instanceof SlowClientError || error instanceof ClientGoneError) {
          resolve(served({ outcome: outcomeOfInterrupt(cancellation.reason), interruptReason: cancellation.reason }));
          return;
        }
        locals.logger.error({ err: error }, 'stream failed');
        resolve(served({ outcome: 'error' }));
      },
    });
  });
  // A protocol that hands over a frame at once (the role chunk) sends the headers with it, in one
  // write; one that waits (a follower of a quiet run) sends them now, so the client is not left waiting.
  if (bytes === 0 && !res.writableEnded && !res.destroyed) res.flushHeaders();
  return served$;
}
