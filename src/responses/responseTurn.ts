import { payerOf } from '../money/payerOf.js';
import type { AgentRequest, ChatMessage } from '../agent/agent.js';
import { checkToolResults } from '../openai/checkToolResults.js';
import { checkToolUse } from '../openai/checkToolUse.js';
import type { Principal } from '../principal.js';
import type { Store } from '../store/Store.js';
import { ResponseDraft } from './ResponseDraft.js';
import { createResponseMeta } from './createResponseMeta.js';
import { resolveItemReferences } from '../openai/resolveItemReferences.js';
import type { ResponseObject } from '../openai/responseObject.js';
import type { ResponseRequest } from './responseRequest.js';
import { toChatMessages } from '../openai/toChatMessages.js';
import { assertUserInput } from '../openai/assertUserInput.js';
import { resumeApprovals } from './resumeApprovals.js';
import type { RunTrace } from '../tracing/RunTrace.js';

/** One `POST /v1/responses`: what the agent is asked, the draft of the answer, and how it is stored. */
export interface ResponseTurn {
  /** Who the response is stored as made by (a principal id). */
  readonly owner: string;
  readonly draft: ResponseDraft;
  readonly agentRequest: AgentRequest;
  /** This turn's input as chat messages, references resolved. */
  readonly input: readonly ChatMessage[];
  /** Stores the response with this turn (its input and the answer so far), when `store` is on; a settled one also applies retention. */
  save(response: ResponseObject): Promise<void>;
  /**
   * The conversation as this turn leaves it: what it continued, its input, the outcomes of the calls
   * it resumed and the answer so far (none while it is empty, as after `generate: false`). What a
   * WebSocket connection remembers for a `previous_response_id` naming this response.
   */
  conversation(): readonly ChatMessage[];
}

export interface ResponseTurnOptions {
  /** Who asks: the response is stored as made by it, and its `item_reference`s name only items it may see. */
  readonly principal: Principal;
  /** The model a request that names none gets. */
  readonly defaultModel: string;
  /** The agent's own tools, which a client tool may not be named after. */
  readonly serverToolNames: readonly string[];
  /** The largest stored conversation `previous_response_id` may continue (`RXGATE_MAX_CONVERSATION_BYTES`). Default: no limit. */
  readonly maxConversationBytes?: number;
  /** The request's span, which the turn's run hangs below. Default: none (tracing off). */
  readonly trace?: RunTrace;
  /** The messages of the conversation the request continues (`conversation`), in place of a `previous_response_id` chain. */
  readonly history?: readonly ChatMessage[];
}

const PARAMS = { toolName: (index: number) => `tools[${index}].name`, toolChoiceName: 'tool_choice.name' };

/**
 * Builds the turn: the request's `instructions` as a system message (they do not carry over a
 * chain, as in OpenAI's API), the stored conversation of `previous_response_id` (each earlier turn
 * once), then this input, its `item_reference`s resolved from the store. Everything that can be
 * refused is refused here, before any byte: an unknown or evicted ancestor or item (404), a conversation over
 * `maxConversationBytes` (400, before any of it is read), no user message in the whole conversation, a `function_call_output` that answers no call, a client tool
 * named like one of the agent's.
 *
 * Calls of the agent's tools that the conversation left waiting for approval are resumed when
 * this input answers them (`resumeApprovals`), and closed as not approved when it goes on without.
 *
 * The stored turn is this input's messages, the outcomes of the calls it resumed, then one
 * assistant message with the answer's text and the client tool calls (and calls waiting for approval) it made, so that a follow-up that sends only `function_call_output`
 * items with `previous_response_id` continues a conversation the upstream accepts.
 */
export async function createResponseTurn(request: ResponseRequest, store: Store, options: ResponseTurnOptions): Promise<ResponseTurn> {
  const history =
    options.history ??
    (request.previousResponseId
      ? await store.responses.conversation(request.previousResponseId, options.maxConversationBytes ?? Number.POSITIVE_INFINITY)
      : []);
  const resume = resumeApprovals(history, request.input, options.serverToolNames);
  const { messages: given, sources } = toChatMessages(await resolveItemReferences(request.input, store, options.principal));
  // Calls the conversation left waiting and this input goes on without answering are closed first, as part of this turn.
  const input = [...resume.closed, ...given];
  // A result for a call that never happened is named before the missing user message, which an input of only such results also lacks.
  checkToolResults([...history, ...input], (index) =>
    index < history.length + resume.closed.length ? undefined : `input[${sources[index - history.length - resume.closed.length]}].call_id`,
  );
  assertUserInput([...history, ...input]);
  const { clientTools, toolChoice, parallelToolCalls, options: modelOptions } = request;
  checkToolUse({ serverToolNames: options.serverToolNames, clientTools, toolChoice }, PARAMS);

  const model = request.model ?? options.defaultModel;
  const meta = createResponseMeta({
    model,
    instructions: request.instructions,
    previousResponseId: request.previousResponseId,
    conversation: request.conversation,
    store: request.store,
    background: request.background,
    echo: request.echo,
    hostedCalls: request.hostedCalls,
  });
  const draft = new ResponseDraft(meta);
  const system: ChatMessage[] = request.instructions ? [{ role: 'system', content: request.instructions }] : [];
  const resumedOutcomes = () =>
    resume.resumed.map((call): ChatMessage => ({
      role: 'tool',
      tool_call_id: call.id,
      content: draft.outcomeOf(call.id) ?? 'Error: no result',
    }));
  return {
    owner: options.principal.id,
    draft,
    input,
    agentRequest: {
      messages: [...system, ...history, ...input],
      model,
      clientTools,
      toolChoice,
      parallelToolCalls,
      options: modelOptions,
      approvals: resume.approvals,
      trace: options.trace,
      payer: payerOf(options.principal, meta.id),
    },
    save: async (response) => {
      if (!request.store) return;
      await store.responses.save(response, [...input, ...resumedOutcomes(), answerOf(draft)], options.principal.id);
      if (response.status !== 'in_progress' && response.status !== 'queued') await store.enforceRetention();
    },
    conversation: () => {
      const answered = draft.answerText !== '' || draft.toolCalls.length > 0;
      return [...history, ...input, ...resumedOutcomes(), ...(answered ? [answerOf(draft)] : [])];
    },
  };
}

/** The assistant message of the answer so far: its text and the client tool calls (and calls waiting for approval) it made. */
function answerOf(draft: ResponseDraft): ChatMessage {
  const toolCalls = draft.toolCalls;
  const text = draft.answerText;
  return toolCalls.length > 0
    ? { role: 'assistant', content: text === '' ? null : text, tool_calls: toolCalls }
    : { role: 'assistant', content: text };
}
