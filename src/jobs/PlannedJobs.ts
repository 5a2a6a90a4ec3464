import type { StoredJob } from '../store/JobStore.js';

/** News of the jobs: the whole list as read (a job missing from it is gone), or one job saved or deleted on this instance. */
export type JobsNews = { readonly list: readonly StoredJob[] } | { readonly saved: StoredJob } | { readonly deleted: string };

/** A job to plan again from its new version, or (`job` undefined) to plan no more: paused or deleted. */
export interface JobChange {
  readonly id: string;
  readonly job: StoredJob | undefined;
}

// What its slots are computed from. A claim (`last_slot`) or a new name, input or model does not move them: `fireJob` reads the job again.
const planOf = ({ schedule, timezone, anchor, owed_from }: StoredJob): string => JSON.stringify([schedule, timezone, anchor, owed_from]);

/**
 * The enabled jobs as last planned, each by the fields its slots come from: news of the jobs
 * becomes the few changes to plan, those of jobs added, rescheduled, paused, resumed or removed.
 * A list costs one comparison a job; one job saved or deleted here costs one.
 */
export class PlannedJobs {
  readonly #plans = new Map<string, string>();

  changes(news: JobsNews): JobChange[] {
    if ('saved' in news) return this.#update([news.saved]);
    if ('deleted' in news) return this.#forget(news.deleted);
    const listed = new Set(news.list.map((job) => job.id));
    return [...[...this.#plans.keys()].filter((id) => !listed.has(id)).flatMap((id) => this.#forget(id)), ...this.#update(news.list)];
  }

  #update(jobs: readonly StoredJob[]): JobChange[] {
    return jobs.flatMap((job) => {
      if (!job.enabled) return this.#forget(job.id);
      const plan = planOf(job);
      if (this.#plans.get(job.id) === plan) return [];
      this.#plans.set(job.id, plan);
      return [{ id: job.id, job }];
    });
  }

  #forget(id: string): JobChange[] {
    return this.#plans.delete(id) ? [{ id, job: undefined }] : [];
  }
}
