import type { DetachedContext } from '../detached/detachedContext.js';
import type { ServingContext } from '../pipeline/servingContext.js';

/** What the Runs API routes share. */
export interface RunsContext extends ServingContext, DetachedContext {}
