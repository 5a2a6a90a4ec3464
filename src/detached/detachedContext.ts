import type { Store } from '../store/Store.js';
import type { DetachedRuns } from './DetachedRuns.js';
import type { Followers } from './Followers.js';

/** What the APIs built on detached runs (Responses, Runs) share. */
export interface DetachedContext {
  readonly store: Store;
  readonly detached: DetachedRuns;
  readonly followers: Followers;
}
