import type { Usage } from '../agent/agentEvent.js';
import { InterruptReason } from '../agent/interruptReason.js';

/** How a response ended, as the access log and the metrics name it. */
export type StreamOutcome = 'completed' | 'client_disconnected' | 'client_too_slow' | 'stopped' | 'error' | 'shutdown';

/** What serving one request came to: the access log line and the request metrics are made of it. */
export interface Served {
  readonly outcome: StreamOutcome;
  /** Why the run was interrupted, when it was. */
  readonly interruptReason?: InterruptReason;
  /** The run's usage so far. */
  readonly usage?: Usage;
  /** SSE bytes handed to the client, keepalives included. */
  readonly bytes?: number;
}

const OUTCOME_OF_REASON: Record<InterruptReason, StreamOutcome> = {
  [InterruptReason.clientDisconnected]: 'client_disconnected',
  [InterruptReason.clientTooSlow]: 'client_too_slow',
  [InterruptReason.stopRequested]: 'stopped',
  [InterruptReason.shuttingDown]: 'shutdown',
  // A deadline ends the stream with an error frame; an output cap with a clean `length` finish.
  [InterruptReason.deadlineExceeded]: 'error',
  [InterruptReason.outputLimitReached]: 'completed',
  [InterruptReason.storeFailed]: 'error',
  [InterruptReason.takenOver]: 'error',
};

export function outcomeOfInterrupt(reason: InterruptReason): StreamOutcome {
  return OUTCOME_OF_REASON[reason];
}
