import type { DetachedContext } from '../detached/detachedContext.js';
import type { ServingContext } from '../pipeline/servingContext.js';

/** What the Responses API routes share. */
export interface ResponsesContext extends ServingContext, DetachedContext {
  /** `RXGATE_MAX_CONVERSATION_BYTES`: the largest stored conversation a `previous_response_id` may continue. */
  readonly maxConversationBytes: number;
}
