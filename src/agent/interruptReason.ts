/** The fixed strings an interrupted run is told; logs and metrics key on them. */
export const InterruptReason = {
  clientDisconnected: 'SSE client disconnected',
  clientTooSlow: 'SSE client too slow',
  stopRequested: 'Stop requested via API',
  shuttingDown: 'Server shutting down',
  deadlineExceeded: 'Deadline exceeded',
  outputLimitReached: 'Output limit reached',
  storeFailed: 'Store write failed',
  takenOver: 'Taken over by another instance',
} as const;

export type InterruptReason = (typeof InterruptReason)[keyof typeof InterruptReason];
