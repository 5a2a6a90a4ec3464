import type { DetachedRuns } from '../detached/DetachedRuns.js';
import type { ServingContext } from '../pipeline/servingContext.js';
import type { Store } from '../store/Store.js';

/** What the Runs API routes share. */
export interface RunsContext extends ServingContext {
  readonly store: Store;
  readonly detached: DetachedRuns;
}
