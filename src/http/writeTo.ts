import { asapScheduler, Observable, Subscription, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs';
import type { Cancellation } from '../agent/cancellation.js';
import { InterruptReason } from '../agent/interruptReason.js';
import { ClientGoneError } from '../errors/ClientGoneError.js';
import { SlowClientError } from '../errors/SlowClientError.js';
import { KEEPALIVE_FRAME } from '../sse/keepalive.js';
import type { SseSink } from './sseSink.js';

export const DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024;

export interface WriteToOptions {
  /** Told why the run ends when the writer gives up on the client. */
  readonly cancellation: Cancellation;
  /** Bytes a client that stopped reading may owe beyond the socket's own buffer. Default 1 MiB. */
  readonly maxBufferedBytes?: number;
  /** Shrinks held frames without losing content (merging text deltas) before the bound is enforced. Default: none. */
  readonly compact?: (frames: readonly string[]) => string[];
  /** Told each time held frames were compacted (metrics). */
  readonly onCompact?: () => void;
  /** When the frames handed over in one turn are written, together. Default: `asapScheduler`. */
  readonly scheduler?: SchedulerLike;
}

const byteLength = (frames: readonly string[]): number => frames.reduce((sum, frame) => sum + Buffer.byteLength(frame), 0);

/**
 * Writes the frames handed over in one turn as one `write` (a burst of upstream deltas costs one
 * write, not one each), and re-emits each frame once handed over. When `write` returns false the
 * writer holds later frames until `'drain'`, dropping keepalives (the client owes bytes already);
 * past `maxBufferedBytes` it compacts what it holds, and if that is not enough it fails with
 * `SlowClientError` (reason `SSE client too slow`). A failed write or a `'close'` fails with
 * `ClientGoneError` (reason `SSE client disconnected`). Completion waits for the held frames.
 *
 * ```
 * source:   -(ab)-c-d-e-|
 * write:    -W----X-Y      W = "ab", one write; Y returns false
 * drain:    -----------x
 * result:   -(ab)-c-d---(e|)     e waited for the drain
 * ```
 */
export function writeTo(
  sink: SseSink,
  {
    cancellation,
    maxBufferedBytes = DEFAULT_MAX_BUFFERED_BYTES,
    compact = (frames) => [...frames],
    onCompact,
    scheduler = asapScheduler,
  }: WriteToOptions,
): MonoTypeOperatorFunction<string> {
  return (frames$) =>
    new Observable<string>((subscriber) => {
      let held: string[] = [];
      // Kept as a running total: summing `held` on every frame is quadratic in what a slow client owes.
      let heldBytes = 0;
      let awaitingDrain = false;
      let sourceDone = false;

      const giveUp = (reason: InterruptReason, error: Error) => {
        cancellation.cancelWith(reason);
        subscriber.error(error);
      };
      const onWritten = (error?: Error | null) => {
        if (error && !subscriber.closed) giveUp(InterruptReason.clientDisconnected, new ClientGoneError(error));
      };
      const onClose = () => giveUp(InterruptReason.clientDisconnected, new ClientGoneError('closed'));
      let turn = '';
      let pendingTurn: Subscription | undefined;
      const writeTurn = () => {
        pendingTurn?.unsubscribe();
        pendingTurn = undefined;
        const chunk = turn;
        turn = '';
        if (chunk === '' || subscriber.closed) return;
        if (!sink.write(chunk, onWritten) && !subscriber.closed) {
          awaitingDrain = true;
          sink.once('drain', onDrain);
        }
      };
      const writeNow = (frame: string) => {
        pendingTurn ??= scheduler.schedule(writeTurn);
        turn += frame;
        subscriber.next(frame);
      };
      const hold = (frame: string) => {
        if (frame === KEEPALIVE_FRAME) return;
        held.push(frame);
        heldBytes += Buffer.byteLength(frame);
        if (heldBytes <= maxBufferedBytes) return;
        held = compact(held);
        onCompact?.();
        heldBytes = byteLength(held);
        if (heldBytes > maxBufferedBytes) giveUp(InterruptReason.clientTooSlow, new SlowClientError(heldBytes, maxBufferedBytes));
      };
      function onDrain() {
        awaitingDrain = false;
        for (const frame of held) writeNow(frame);
        held = [];
        heldBytes = 0;
        if (sourceDone) {
          writeTurn();
          if (!awaitingDrain) subscriber.complete();
        }
      }

      sink.once('close', onClose);
      const subscription = frames$.subscribe({
        next: (frame) => (awaitingDrain ? hold(frame) : writeNow(frame)),
        error: (error: unknown) => {
          writeTurn();
          subscriber.error(error);
        },
        complete: () => {
          sourceDone = true;
          // What this turn handed over goes out before the response may end.
          writeTurn();
          if (!awaitingDrain) subscriber.complete();
        },
      });
      return () => {
        subscription.unsubscribe();
        pendingTurn?.unsubscribe();
        sink.off('drain', onDrain);
        sink.off('close', onClose);
      };
    });
}
