import type { RunEvent } from './runEvent.js';
import type { ProtocolOperators } from '../pipeline/protocolOperators.js';
import type { DetachedContext } from '../detached/detachedContext.js';
import type { ServingContext } from '../serving/servingContext.js';
import type { OpenConversation } from '../openai/heldConversation.js';

/** What the Runs API routes share. */
export interface RunsContext extends ServingContext, DetachedContext {
  /** `RXGATE_APPROVAL_TIMEOUT_MS`: how long a call waits for a person's approval before it is denied. */
  readonly approvalTimeoutMs: number;
  /** `RXGATE_IDEMPOTENCY_TTL_MS`: how long an `Idempotency-Key` is remembered. */
  readonly idempotencyTtlMs: number;
  /** Holds the conversation a run continues (`conversation`). */
  readonly openConversation: OpenConversation;
  /** User operators for every run stream; each factory is called once per run. */
  readonly operators: ProtocolOperators<RunEvent>;
}
