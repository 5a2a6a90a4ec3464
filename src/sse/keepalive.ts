import { asyncScheduler, Observable, type MonoTypeOperatorFunction, type SchedulerLike, type Subscriber, type Subscription } from 'rxjs';
import { Stage } from '../rx/Stage.js';
import { serializeComment } from './serializeFrame.js';

export const KEEPALIVE_FRAME = serializeComment('keepalive');

// Scheduled with the stream's keepalive as its state: one function for every stream.
const checkOf = (keepalive: Keepalive): void => keepalive.check();

/** One `keepalive` subscription, for every open stream. */
class Keepalive extends Stage<string> {
  private lastFrameAt: number;
  private timer: Subscription | undefined = undefined;

  constructor(
    destination: Subscriber<string>,
    private readonly ms: number,
    private readonly scheduler: SchedulerLike,
    private readonly frame: string,
  ) {
    super(destination);
    this.lastFrameAt = scheduler.now();
  }

  protected override onSubscribed(): void {
    this.check();
  }

  /** Sends a keepalive if the interval has passed since the last frame, then waits out what is left of the next one. */
  check(): void {
    if (this.lastFrameAt + this.ms - this.scheduler.now() <= 0) {
      this.lastFrameAt = this.scheduler.now();
      this.destination.next(this.frame);
    }
    if (this.destination.closed) return;
    this.timer = this.scheduler.schedule(checkOf, Math.max(0, this.lastFrameAt + this.ms - this.scheduler.now()), this);
  }

  protected onNext(frame: string): void {
    this.lastFrameAt = this.scheduler.now();
    this.destination.next(frame);
  }

  // Also once the source has ended: `error` and `complete` unsubscribe after handing the end on.
  override unsubscribe(): void {
    this.timer?.unsubscribe();
    super.unsubscribe();
  }
}

/**
 * Emits `frame` (a comment, unless the protocol has its own) whenever `ms` pass without a frame, counting from subscription (so a
 * model that thinks before its first token keeps the connection alive), and stops with the stream.
 *
 * A frame only records its time: the one pending timer, when it fires early because frames came
 * meanwhile, waits out the rest of the interval instead of being re-armed on every frame. One
 * subscriber and one scheduled action per stream (it is held by every open stream for its life).
 *
 * ```
 * keepalive(3)
 * source:   -a------------|
 * result:   -a--k--k--k--k|
 * ```
 */
export function keepalive(
  ms: number,
  scheduler: SchedulerLike = asyncScheduler,
  frame: string = KEEPALIVE_FRAME,
): MonoTypeOperatorFunction<string> {
  return (frames$) => new Observable<string>((destination) => new Keepalive(destination, ms, scheduler, frame).subscribeTo(frames$));
}
