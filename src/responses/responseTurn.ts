import type { AgentRequest, ChatMessage } from '../agent/agent.js';
import { ResponseDraft } from './ResponseDraft.js';
import { createResponseMeta } from './createResponseMeta.js';
import type { ResponseObject } from './responseObject.js';
import type { Store } from '../store/Store.js';
import type { ResponseRequest } from './responseRequest.js';

/** One `POST /v1/responses`: what the agent is asked, the draft of the answer, and how it is stored. */
export interface ResponseTurn {
  readonly draft: ResponseDraft;
  readonly agentRequest: AgentRequest;
  /** Stores the response with this turn (its input and the answer so far), when `store` is on. */
  save(response: ResponseObject): void;
}

/**
 * Builds the turn: the request's `instructions` as a system message (they do not carry over a
 * chain, as in OpenAI's API), the stored conversation of `previous_response_id` (each earlier turn
 * once), then this input. An unknown or evicted ancestor is a 404 raised here, before any byte; a
 * conversation over `maxConversationBytes` a 400, before any of it is read.
 */
export function createResponseTurn(
  request: ResponseRequest,
  store: Store,
  defaultModel: string,
  maxConversationBytes = Number.POSITIVE_INFINITY,
): ResponseTurn {
  const history: ChatMessage[] = request.previousResponseId
    ? store.responses.conversation(request.previousResponseId, maxConversationBytes)
    : [];
  const model = request.model ?? defaultModel;
  const meta = createResponseMeta({
    model,
    instructions: request.instructions,
    previousResponseId: request.previousResponseId,
    store: request.store,
    background: request.background,
  });
  const draft = new ResponseDraft(meta);
  const system: ChatMessage[] = request.instructions ? [{ role: 'system', content: request.instructions }] : [];
  return {
    draft,
    agentRequest: { messages: [...system, ...history, ...request.input], model },
    save: (response) => {
      if (!request.store) return;
      store.responses.save(response, [...request.input, { role: 'assistant', content: draft.outputText }]);
      if (response.status !== 'in_progress' && response.status !== 'queued') store.enforceRetention();
    },
  };
}
