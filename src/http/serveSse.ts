import type { Response } from 'express';
import type { Observable, SchedulerLike } from 'rxjs';
import type { Cancellation } from '../agent/cancellation.js';
import { ClientGoneError } from '../errors/ClientGoneError.js';
import { SlowClientError } from '../errors/SlowClientError.js';
import type { Metrics } from '../metrics/createMetrics.js';
import { KEEPALIVE_FRAME } from '../sse/keepalive.js';
import { localsOf } from './requestContext.js';
import { responseEnd$ } from './responseEnd.js';
import { SSE_HEADERS } from '../sse/sseHeaders.js';
import { outcomeOfInterrupt } from '../pipeline/streamOutcome.js';
import { streamToClient } from './streamToClient.js';

export interface ServeSseOptions {
  readonly cancellation: Cancellation;
  /** Emits to end the stream from the server's side (stop, shutdown); the reason is on `cancellation`. */
  readonly stop$: Observable<void>;
  readonly metrics: Metrics;
  readonly keepaliveMs: number;
  readonly maxBufferedBytes: number;
  /** How the protocol shrinks what a slow client owes without losing content. Default: it cannot. */
  readonly compact?: (frames: readonly string[]) => string[];
  /**
   * Called once when the stream is over, however it ended; a frame it returns is written last if
   * the client is still there (the protocol's way of saying the server ended the stream).
   */
  readonly finalFrame?: () => string | undefined;
  readonly scheduler?: SchedulerLike;
}

/**
 * Answers with `frames$` as SSE through the one client pipeline (keepalive, bounded writer,
 * `takeUntil` last), records how the response went (outcome, interrupt reason, bytes,
 * keepalives, slow-client cut-offs, time to first byte), and resolves when it is over.
 */
export function serveSse(res: Response, frames$: Observable<string>, options: ServeSseOptions): Promise<void> {
  const { cancellation, metrics } = options;
  const locals = localsOf(res);
  res.writeHead(200, SSE_HEADERS);
  res.flushHeaders();

  let firstByte = true;
  // Counted here and added to the metrics once, when the response is over: not per frame.
  let bytesWritten = 0;
  let keepalives = 0;
  const recordWrites = () => {
    metrics.bytesWritten.inc(bytesWritten);
    metrics.keepalives.inc(keepalives);
  };

  return new Promise<void>((resolve) => {
    streamToClient(frames$, {
      ...options,
      sink: res,
      clientClose$: responseEnd$(res, options.stop$, cancellation, metrics),
      onCompact: () => metrics.slowClientCompactions.inc(),
    }).subscribe({
      next: (frame) => {
        if (firstByte) metrics.timeToFirstByte.observe((performance.now() - locals.startedAt) / 1000);
        firstByte = false;
        bytesWritten += Buffer.byteLength(frame);
        if (frame === KEEPALIVE_FRAME) keepalives++;
      },
      complete: () => {
        recordWrites();
        const last = options.finalFrame?.();
        if (last !== undefined && !res.destroyed) res.write(last);
        locals.outcome ??= 'completed';
        res.end();
        resolve();
      },
      error: (error: unknown) => {
        recordWrites();
        locals.outcome = outcomeOfInterrupt(cancellation.reason);
        locals.interruptReason = cancellation.reason;
        options.finalFrame?.();
        if (error instanceof SlowClientError) metrics.slowClientCutoffs.inc();
        else if (!(error instanceof ClientGoneError)) locals.logger.error({ err: error }, 'stream failed');
        res.destroy();
        resolve();
      },
    });
  });
}
