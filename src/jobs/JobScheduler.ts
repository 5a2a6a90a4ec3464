import {
  asyncScheduler,
  catchError,
  EMPTY,
  from,
  merge,
  mergeMap,
  Subject,
  switchMap,
  timer,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import type { Logger } from '../logger.js';
import type { RunsContext } from '../runs/runsContext.js';
import { DEFAULT_PRINCIPAL } from '../principal.js';
import { fireJob, type OwnerKey, type OwnerSlot } from './fireJob.js';
import { scheduleJobs } from './scheduleJobs.js';

export interface JobSchedulerOptions {
  /** `RXGATE_JOBS_GRACE_MS`. */
  readonly graceMs: number;
  /** `RXGATE_JOBS_REFRESH_MS`: how often the job list is read again, for what other instances changed. */
  readonly refreshMs: number;
  readonly logger: Logger;
  /**
   * The key a job's owner has now, asked at each fire (a reloaded keys file holds from the next
   * fire on). Default: a server without keys, where every job runs as `DEFAULT_PRINCIPAL`.
   */
  readonly ownerKey?: OwnerKey;
  /** A `maxStreams` slot of the owner's key for each fire's run. Default: always one, as on a server without keys. */
  readonly ownerSlot?: OwnerSlot;
  /** Default `asyncScheduler` and `Date.now`. */
  readonly scheduler?: SchedulerLike;
  readonly clock?: () => number;
}

/**
 * Fires every instance's jobs from this one: the job list read at start, every `refreshMs` and at
 * once after a change here; the slots of its enabled jobs as RxJS timers (`scheduleJobs`); each slot
 * fired by the instance that claims it in the store (`fireJob`). A fire that is under way when the
 * list changes goes on.
 */
export class JobScheduler {
  readonly #changed = new Subject<void>();
  readonly #subscription: Subscription;

  constructor(
    context: RunsContext,
    {
      graceMs,
      refreshMs,
      logger,
      ownerKey = () => DEFAULT_PRINCIPAL,
      ownerSlot = async () => () => undefined,
      scheduler = asyncScheduler,
      clock = Date.now,
    }: JobSchedulerOptions,
  ) {
    const fail = (what: string) => (error: unknown) => {
      logger.error({ err: error }, what);
      return EMPTY;
    };
    this.#subscription = merge(timer(0, refreshMs, scheduler), this.#changed)
      .pipe(
        switchMap(() => from(context.store.jobs.list()).pipe(catchError(fail('could not read the jobs')))),
        scheduleJobs({ clock, scheduler, graceMs }),
        mergeMap(({ job, ...due }) =>
          from(fireJob(context, { job, ...due }, clock, ownerKey, ownerSlot)).pipe(catchError(fail(`could not fire job ${job.id}`))),
        ),
      )
      .subscribe();
  }

  /** A job was made, changed or removed here: read the list again now. */
  changed(): void {
    this.#changed.next();
  }

  /** Stops firing; runs already started go on. */
  stop(): void {
    this.#subscription.unsubscribe();
  }
}
