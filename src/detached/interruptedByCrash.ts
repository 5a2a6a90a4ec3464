/** What a run or response whose process died in flight says when another process (or the next one) finds it. */
export const INTERRUPTED_BY_CRASH =
  'the server instance running this stopped while it was in progress (crash, kill, or its lease on the store expired); it did not finish';
