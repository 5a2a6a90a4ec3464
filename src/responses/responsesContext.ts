import type { ResponseStreamEvent } from '../openai/responseObject.js';
import type { ProtocolOperators } from '../pipeline/protocolOperators.js';
import type { DetachedContext } from '../detached/detachedContext.js';
import type { ServingContext } from '../serving/servingContext.js';
import type { HostedToolsMap, HostedToolsPolicy } from './hostedToolPlacement.js';
import type { OpenConversation } from '../openai/heldConversation.js';

/** What the Responses API routes share. */
export interface ResponsesContext extends ServingContext, DetachedContext {
  /** `RXGATE_MAX_CONVERSATION_BYTES`: the largest stored conversation a `previous_response_id` may continue. */
  readonly maxConversationBytes: number;
  /** `RXGATE_IDEMPOTENCY_TTL_MS`: how long an `Idempotency-Key` is remembered. */
  readonly idempotencyTtlMs: number;
  /** `RXGATE_HOSTED_TOOLS`: what a request's hosted tools get. */
  readonly hostedTools: HostedToolsPolicy;
  /** `RXGATE_HOSTED_TOOLS_MAP`: the server tools standing in for hosted ones. */
  readonly hostedToolsMap: HostedToolsMap;
  /** Holds the conversation a request continues (`conversation`). */
  readonly openConversation: OpenConversation;
  /** User operators for every response stream; each factory is called once per run. */
  readonly operators: ProtocolOperators<ResponseStreamEvent>;
}
