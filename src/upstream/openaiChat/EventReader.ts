import type { EventSourceMessage } from 'eventsource-parser';
import type { UpstreamError } from '../../errors/UpstreamError.js';
import type { UpstreamChunk } from '../upstreamChunk.js';

/**
 * What an upstream kind makes of the SSE events of one answer (`streamChunks` reads the body, a
 * reader its events): a chunk, nothing (a ping, an event that says nothing), or the failure the
 * stream ends with.
 */
export interface EventReader {
  read(event: EventSourceMessage): UpstreamChunk | UpstreamError | undefined;
  /** The terminal event was read (`[DONE]`, `message_stop`): nothing after it is read, and the body is drained. */
  readonly done: boolean;
  /** The answer said it finished (a finish reason): a body that ends here, even without the terminal event, is complete. */
  readonly finished: boolean;
}
