import { takeUntil, type Observable, type SchedulerLike } from 'rxjs';
import type { Cancellation } from '../agent/cancellation.js';
import { keepalive } from '../sse/keepalive.js';
import type { SseSink } from '../sse/sseSink.js';
import { writeTo } from '../sse/writeTo.js';

export interface StreamToClientOptions {
  readonly sink: SseSink;
  /** Emits when the client went away; see `clientClose$`. */
  readonly clientClose$: Observable<unknown>;
  readonly cancellation: Cancellation;
  readonly keepaliveMs: number;
  readonly maxBufferedBytes?: number;
  readonly compact?: (frames: readonly string[]) => string[];
  readonly onCompact?: () => void;
  /** Times keepalives and write batching; a `TestScheduler` in marble specs. Default: `asyncScheduler` and `asapScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/**
 * The client end of every SSE route: keepalives from the first byte, bounded writes, and
 * `takeUntil(clientClose$)` last, so a client that leaves unsubscribes the run at once.
 *
 * ```
 * frames:     -a-b-------
 * clientClose$: -----x
 * result:     -a-b-|         the run's teardown (and its interrupt) runs at x
 * ```
 */
export function streamToClient(frames$: Observable<string>, options: StreamToClientOptions): Observable<string> {
  const { sink, cancellation, maxBufferedBytes, compact, onCompact, scheduler } = options;
  return frames$.pipe(
    keepalive(options.keepaliveMs, scheduler),
    writeTo(sink, { cancellation, maxBufferedBytes, compact, onCompact, scheduler }),
    takeUntil(options.clientClose$),
  );
}
