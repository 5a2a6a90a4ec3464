import type { DetachedRuns } from '../detached/DetachedRuns.js';
import type { ServingContext } from '../pipeline/servingContext.js';
import type { Store } from '../store/Store.js';

/** What the Responses API routes share. */
export interface ResponsesContext extends ServingContext {
  readonly store: Store;
  readonly detached: DetachedRuns;
  /** `RXGATE_MAX_CONVERSATION_BYTES`: the largest stored conversation a `previous_response_id` may continue. */
  readonly maxConversationBytes: number;
}
