import {
  asapScheduler,
  Observable,
  Subscription,
  type MonoTypeOperatorFunction,
  type Observer,
  type SchedulerLike,
  type Subscriber,
  type Unsubscribable,
} from 'rxjs';
import type { Cancellation } from '../agent/cancellation.js';
import { InterruptReason } from '../agent/interruptReason.js';
import { DEFAULTS } from '../config.js';
import { ClientGoneError } from '../errors/ClientGoneError.js';
import { SlowClientError } from '../errors/SlowClientError.js';
import { encodeUtf8 } from '../wire/encodeUtf8.js';
import { KEEPALIVE_FRAME } from './keepalive.js';
import type { SseSink } from './sseSink.js';

export interface WriteToOptions {
  /** Told why the run ends when the writer gives up on the client. */
  readonly cancellation: Cancellation;
  /** Bytes a client that stopped reading may owe beyond the socket's own buffer. Default: `RXGATE_MAX_BUFFERED_BYTES`'s, 1 MiB. */
  readonly maxBufferedBytes?: number;
  /** Shrinks held frames without losing content (merging text deltas) before the bound is enforced. Default: none. */
  readonly compact?: (frames: readonly string[]) => string[];
  /** Told each time held frames were compacted (metrics). */
  readonly onCompact?: () => void;
  /** Told the size of each write, in bytes (metrics). */
  readonly onWrite?: (bytes: number) => void;
  /**
   * When the frames handed over in one turn are written, together: every turn, the first one too.
   * Default: `asapScheduler`, and the first turn, which carries the response's headers, one step
   * later, in the event loop's check phase (`setImmediate`): see `SinkWriter.writeScheduledTurn`.
   */
  readonly scheduler?: SchedulerLike;
}

const byteLength = (frames: readonly string[]): number => frames.reduce((sum, frame) => sum + Buffer.byteLength(frame), 0);
const keepAll = (frames: readonly string[]): string[] => [...frames];
/**
 * What one turn's frames are written as. A long turn (a burst of deltas) is encoded here, once: a
 * string's write measures it first for its chunk size, and measuring a turn of concatenated frames
 * costs more than encoding it. A short one is written as the string it is: a buffer that short
 * would be cut from Node's shared pool, whose whole slab a write held by a stalled client would keep alive.
 */
const encodedTurn = (turn: string): string | Buffer => (turn.length >= Buffer.poolSize >>> 1 ? encodeUtf8(turn) : turn);
// Scheduled with the writer as its state: one function for every stream.
const writeTurnOf = (writer: SinkWriter): void => writer.writeScheduledTurn();

/**
 * One `writeTo` subscription, for every open stream; it is its own teardown. Not a `Stage`: its end
 * waits for a drain after its source has ended, where a `Stage` takes nothing more once it has.
 */
class SinkWriter implements Observer<string>, Unsubscribable {
  private held: string[] = [];
  // Kept as a running total: summing `held` on every frame is quadratic in what a slow client owes.
  private heldBytes = 0;
  private awaitingDrain = false;
  private sourceDone = false;
  private turn = '';
  private pendingTurn: Subscription | undefined = undefined;
  private source: Subscription | undefined = undefined;
  // The sink's listeners, bound once for the writer's life (so that they can be removed): no context to hold.
  private readonly onWritten = this.afterWrite.bind(this);
  private readonly onDrain = this.drained.bind(this);
  private readonly onClose = this.clientClosed.bind(this);

  constructor(
    private readonly subscriber: Subscriber<string>,
    private readonly sink: SseSink,
    private readonly cancellation: Cancellation,
    private readonly maxBufferedBytes: number,
    private readonly compact: (frames: readonly string[]) => string[],
    private readonly onCompact: (() => void) | undefined,
    private readonly onWrite: ((bytes: number) => void) | undefined,
    private readonly scheduler: SchedulerLike,
    private firstTurnInCheckPhase: boolean,
  ) {}

  start(frames$: Observable<string>): this {
    this.sink.once('close', this.onClose);
    this.source = frames$.subscribe(this);
    return this;
  }

  next(frame: string): void {
    if (this.awaitingDrain) this.hold(frame);
    else this.writeNow(frame);
  }

  error(error: unknown): void {
    this.writeTurn();
    this.subscriber.error(error);
  }

  complete(): void {
    this.sourceDone = true;
    // What this turn handed over goes out before the response may end.
    this.writeTurn();
    if (!this.awaitingDrain) this.subscriber.complete();
  }

  unsubscribe(): void {
    this.source?.unsubscribe();
    this.pendingTurn?.unsubscribe();
    this.sink.off('drain', this.onDrain);
    this.sink.off('close', this.onClose);
  }

  /**
   * A turn's scheduled write. The first one waits for the check phase of the loop: what the
   * subscription that handed its frames over set going goes out first. That is the upstream
   * request: undici writes one on a reused keep-alive connection only in the check phase (the
   * socket first gets a poll to show whether the server closed it), and it is what the answer waits
   * for, where the client's headers are not. They still go out in the same turn of the loop.
   */
  writeScheduledTurn(): void {
    if (!this.firstTurnInCheckPhase) return this.writeTurn();
    this.firstTurnInCheckPhase = false;
    const immediate = setImmediate(writeTurnOf, this);
    this.pendingTurn = new Subscription(() => clearImmediate(immediate));
  }

  writeTurn(): void {
    this.pendingTurn?.unsubscribe();
    this.pendingTurn = undefined;
    const chunk = this.turn;
    this.turn = '';
    if (chunk === '' || this.subscriber.closed) return;
    const data = encodedTurn(chunk);
    this.onWrite?.(typeof data === 'string' ? Buffer.byteLength(data) : data.length);
    if (!this.sink.write(data, this.onWritten) && !this.subscriber.closed) {
      this.awaitingDrain = true;
      this.sink.once('drain', this.onDrain);
    }
  }

  private writeNow(frame: string): void {
    this.pendingTurn ??= this.scheduler.schedule(writeTurnOf, 0, this);
    this.turn += frame;
    this.subscriber.next(frame);
  }

  private hold(frame: string): void {
    if (frame === KEEPALIVE_FRAME) return;
    this.held.push(frame);
    this.heldBytes += Buffer.byteLength(frame);
    if (this.heldBytes <= this.maxBufferedBytes) return;
    this.held = this.compact(this.held);
    this.onCompact?.();
    this.heldBytes = byteLength(this.held);
    if (this.heldBytes > this.maxBufferedBytes) {
      this.giveUp(InterruptReason.clientTooSlow, new SlowClientError(this.heldBytes, this.maxBufferedBytes));
    }
  }

  private afterWrite(error?: Error | null): void {
    if (error && !this.subscriber.closed) this.giveUp(InterruptReason.clientDisconnected, new ClientGoneError(error));
  }

  private clientClosed(): void {
    this.giveUp(InterruptReason.clientDisconnected, new ClientGoneError('closed'));
  }

  private drained(): void {
    this.awaitingDrain = false;
    for (const frame of this.held) this.writeNow(frame);
    this.held = [];
    this.heldBytes = 0;
    if (this.sourceDone) {
      this.writeTurn();
      if (!this.awaitingDrain) this.subscriber.complete();
    }
  }

  private giveUp(reason: InterruptReason, error: Error): void {
    this.cancellation.cancelWith(reason);
    this.subscriber.error(error);
  }
}

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
  { cancellation, maxBufferedBytes = DEFAULTS.maxBufferedBytes, compact = keepAll, onCompact, onWrite, scheduler }: WriteToOptions,
): MonoTypeOperatorFunction<string> {
  return (frames$) =>
    new Observable<string>((subscriber) =>
      new SinkWriter(
        subscriber,
        sink,
        cancellation,
        maxBufferedBytes,
        compact,
        onCompact,
        onWrite,
        scheduler ?? asapScheduler,
        !scheduler,
      ).start(frames$),
    );
}
