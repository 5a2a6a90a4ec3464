import { Subscription, type Observable } from 'rxjs';

/** The steers of one run that no model call has taken yet. */
export interface SteerQueue {
  /** Every steer queued so far, in order, and none again. */
  take(): string[];
  /** How many are queued. */
  readonly size: number;
  readonly subscription: Subscription;
}

// What a run without steers holds: one queue shared by all of them, empty for good.
const NO_STEERS: SteerQueue = { take: () => [], size: 0, subscription: Subscription.EMPTY };

/**
 * Queues what `steers$` brings from now on until `subscription` is unsubscribed, for the agent to
 * take at its next model call: a steer never lands in the middle of a model's answer.
 */
export function queueSteers(steers$: Observable<string> | undefined): SteerQueue {
  if (!steers$) return NO_STEERS;
  const queued: string[] = [];
  const subscription = steers$.subscribe((input) => queued.push(input));
  return {
    take: () => queued.splice(0),
    get size() {
      return queued.length;
    },
    subscription,
  };
}
