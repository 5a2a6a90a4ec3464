import { identity, takeUntil, type MonoTypeOperatorFunction, type Observable, type SchedulerLike } from 'rxjs';
import type { Cancellation } from '../agent/cancellation.js';
import { keepalive } from '../sse/keepalive.js';
import type { SseSink } from '../sse/sseSink.js';
import { writeTo } from '../sse/writeTo.js';
import type { SseProtocol } from './sseProtocol.js';
import { toFrames } from './toFrames.js';

export interface SsePipelineOptions<In, Out> {
  readonly sink: SseSink;
  /** Emits when the response must end before the source does: the client left, or the server ended it. */
  readonly clientClose$: Observable<unknown>;
  /** Told why the run ends when the writer gives up on the client. */
  readonly cancellation: Cancellation;
  /** How long the stream may stay quiet before a keepalive frame goes out. Default: never (a WebSocket keeps itself alive with pings). */
  readonly keepaliveMs?: number;
  /** See `writeTo`. Default 1 MiB. */
  readonly maxBufferedBytes?: number;
  /** User operators over the source's values, before the encoder. */
  readonly events?: MonoTypeOperatorFunction<In>;
  /** User operators over the protocol's messages, before serialisation. */
  readonly chunks?: MonoTypeOperatorFunction<Out>;
  /** Told when the run failed, with its error when there is one (the protocol ends the stream its own way). */
  readonly onFailure?: (error?: unknown) => void;
  /** Told each time the frames held for a slow client were compacted. */
  readonly onCompact?: () => void;
  /** Told the size of each write, in bytes. */
  readonly onWrite?: (bytes: number) => void;
  /** Times keepalives and write batching; a `TestScheduler` in marble specs. Default: `asyncScheduler` and `asapScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/**
 * THE SSE pipeline, the one every SSE route goes through: the source, the user's event operators,
 * the protocol's encoder, the user's chunk operators, frames, the protocol's end frames,
 * keepalives from the first byte, the bounded writer, and `takeUntil(clientClose$)` last, so a
 * client that leaves unsubscribes the run (which interrupts it) at the frame it leaves.
 *
 * ```
 * source:       -a-b---------
 * clientClose$: ------x
 * result:       -A-B--|          the run's teardown (and its interrupt) runs at x
 * ```
 *
 * @example
 * ssePipeline(agent.run(request, cancellation), chatProtocol(meta), { sink: res, clientClose$: clientClose$(res), cancellation, keepaliveMs: 10_000 })
 *   .subscribe({ complete: () => res.end() });
 */
export function ssePipeline<In, Out>(
  source$: Observable<In>,
  protocol: SseProtocol<In, Out>,
  options: SsePipelineOptions<In, Out>,
): Observable<string> {
  const { cancellation, scheduler } = options;
  return source$.pipe(
    options.events ?? identity,
    protocol.encode,
    options.chunks ?? identity,
    toFrames(protocol.frame, protocol.isFailure, options.onFailure),
    protocol.end ?? identity,
    options.keepaliveMs === undefined ? identity : keepalive(options.keepaliveMs, scheduler, protocol.keepaliveFrame),
    writeTo(options.sink, {
      cancellation,
      maxBufferedBytes: options.maxBufferedBytes,
      compact: protocol.compact,
      onCompact: options.onCompact,
      onWrite: options.onWrite,
      scheduler,
    }),
    takeUntil(options.clientClose$),
  );
}
