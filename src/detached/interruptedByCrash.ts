/** What a run or response that a dead process left in flight says when the next process finds it. */
export const INTERRUPTED_BY_CRASH = 'the server stopped while this was in progress (crash or kill); it did not finish';
