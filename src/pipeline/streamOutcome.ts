import { InterruptReason } from '../agent/interruptReason.js';

/** How a response ended, as the access log and the metrics name it. */
export type StreamOutcome = 'completed' | 'client_disconnected' | 'client_too_slow' | 'stopped' | 'error' | 'shutdown';

const OUTCOME_OF_REASON: Record<InterruptReason, StreamOutcome> = {
  [InterruptReason.clientDisconnected]: 'client_disconnected',
  [InterruptReason.clientTooSlow]: 'client_too_slow',
  [InterruptReason.stopRequested]: 'stopped',
  [InterruptReason.shuttingDown]: 'shutdown',
  // A deadline ends the stream with an error frame; an output cap with a clean `length` finish.
  [InterruptReason.deadlineExceeded]: 'error',
  [InterruptReason.outputLimitReached]: 'completed',
};

export function outcomeOfInterrupt(reason: InterruptReason): StreamOutcome {
  return OUTCOME_OF_REASON[reason];
}
