import {
  asyncScheduler,
  catchError,
  EMPTY,
  from,
  map,
  merge,
  mergeMap,
  of,
  Subject,
  switchMap,
  timer,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import type { Logger } from '../logger.js';
import type { RunsContext } from '../runs/runsContext.js';
import { DEFAULT_PRINCIPAL } from '../principal.js';
import type { StoredJob } from '../store/JobStore.js';
import { fireJob, type OwnerKey, type OwnerSlot } from './fireJob.js';
import type { JobsNews } from './PlannedJobs.js';
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
 * Fires every instance's jobs from this one: the job list read at start and every `refreshMs`, and
 * each job saved or deleted here told at once; the slots of its enabled jobs as RxJS timers, planned
 * again only for the jobs that changed (`scheduleJobs`); each slot fired by the instance that claims
 * it in the store (`fireJob`). A fire that is under way when the list changes goes on.
 */
export class JobScheduler {
  readonly #news = new Subject<JobsNews>();
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
    const read$ = () =>
      from(context.store.jobs.list()).pipe(
        map((list): JobsNews => ({ list })),
        catchError(fail('could not read the jobs')),
      );
    this.#subscription = merge(timer(0, refreshMs, scheduler), this.#news)
      .pipe(
        // News from here drops a read under way, which may have started before the change it tells.
        switchMap((news) => (typeof news === 'number' ? read$() : of(news))),
        scheduleJobs({ clock, scheduler, graceMs }),
        mergeMap(({ job, ...due }) =>
          from(fireJob(context, { job, ...due }, clock, ownerKey, ownerSlot)).pipe(catchError(fail(`could not fire job ${job.id}`))),
        ),
      )
      .subscribe();
  }

  /** A job was made or changed here: its slots are planned again if they moved. */
  saved(job: StoredJob): void {
    this.#news.next({ saved: job });
  }

  /** A job was removed here: it fires no more. */
  deleted(id: string): void {
    this.#news.next({ deleted: id });
  }

  /** Stops firing; runs already started go on. */
  stop(): void {
    this.#subscription.unsubscribe();
  }
}
