import type { Response } from 'express';
import { noop, Observable, type Subscriber, type Subscription, type Unsubscribable } from 'rxjs';
import type { Cancellation } from '../agent/cancellation.js';
import { InterruptReason } from '../agent/interruptReason.js';
import type { Metrics } from '../metrics/createMetrics.js';
import { onClientClose } from './clientClose.js';
import type { Lifecycle } from './lifecycle.js';

/** One subscriber's watch over its response, for every open stream. It is its own teardown. */
class ResponseEndWatch implements Unsubscribable {
  private readonly onClientLeft = this.clientLeft.bind(this);
  private stopListening: () => void = noop;
  private stopped: Subscription | undefined = undefined;

  constructor(
    private readonly subscriber: Subscriber<void>,
    private readonly cancellation: Cancellation,
    private readonly ended: () => void,
  ) {}

  start(res: Response, stop$: Observable<void>): this {
    this.stopListening = onClientClose(res, this.onClientLeft);
    // An observer with only `next`: stop$ completing (the run was unregistered) does not end the response.
    this.stopped = stop$.subscribe(this);
    return this;
  }

  /** The response ends: stop$ emitted, or the client left. */
  next(): void {
    this.ended();
    this.subscriber.next();
  }

  unsubscribe(): void {
    this.stopListening();
    this.stopped?.unsubscribe();
  }

  private clientLeft(): void {
    this.cancellation.cancelWith(InterruptReason.clientDisconnected);
    this.next();
  }
}

/**
 * Emits when a response must end before its run does: the client left (the reason named is
 * `SSE client disconnected`), or the server ended it (`stop$`: a stop request, shutdown, which
 * named their reason first), telling `onEnd` first. Times how long the run then takes to be interrupted. One subscriber
 * and one `'close'` listener, held by every open stream for its life (a merge and its taps cost a dozen closures).
 */
export function responseEnd$(res: Response, { cancellation, stop$ }: Lifecycle, metrics: Metrics, onEnd?: () => void): Observable<void> {
  let endedAt: number | undefined;
  cancellation.onInterrupted(() => {
    if (endedAt !== undefined) metrics.disconnectToInterrupt.observe((performance.now() - endedAt) / 1000);
  });
  const ended = () => {
    endedAt = performance.now();
    onEnd?.();
  };
  return new Observable<void>((subscriber) => new ResponseEndWatch(subscriber, cancellation, ended).start(res, stop$));
}
