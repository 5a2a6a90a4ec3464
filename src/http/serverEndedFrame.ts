import type { InterruptReason } from '../agent/interruptReason.js';
import { serializeFrame } from '../sse/serializeFrame.js';
import type { StreamOutcome } from '../pipeline/streamOutcome.js';

/**
 * The last frame of a stream the server ended (stop, shutdown): an error, so that SDKs raise
 * instead of taking a cut-off answer for a whole one.
 */
export function serverEndedFrame(reason: InterruptReason, outcome: StreamOutcome): string {
  const error = { message: `rxgate: ${reason}`, type: 'server_error', param: null, code: outcome };
  return serializeFrame({ data: JSON.stringify({ error }) });
}
