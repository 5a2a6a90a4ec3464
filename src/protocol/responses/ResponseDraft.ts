import { randomUUID } from 'node:crypto';
import type { AgentEvent, FinishReason, Usage } from '../../agent/agentEvent.js';
import { sumUsage, ZERO_USAGE } from '../../agent/sumUsage.js';
import { toOpenAIError } from '../../errors/toOpenAIError.js';
import type {
  FunctionCallItem,
  ItemStatus,
  MessageItem,
  OutputItem,
  ResponseMeta,
  ResponseObject,
  ResponseStatus,
  ResponseStreamEvent,
} from './responseObject.js';

type Fields = Record<string, unknown>;
const shortId = () => randomUUID().replaceAll('-', '');

/**
 * The response being built from one run: its output items, usage and sequence numbers. The
 * encoder asks it for the events each agent event implies; whoever ends a run early asks it for
 * a snapshot of what was said so far.
 */
export class ResponseDraft {
  readonly #items: OutputItem[] = [];
  #openMessage: number | undefined;
  #usage: Usage = ZERO_USAGE;
  #finishReason: FinishReason | undefined;
  #sequence = 0;
  /** What the run failed with, once `fail` was called (a non-streaming answer reports it as an HTTP error). */
  failure: unknown;

  constructor(readonly meta: ResponseMeta) {}

  /** The text of every message item, as the SDKs' `output_text` joins it. */
  get outputText(): string {
    return this.#items.flatMap((item) => (item.type === 'message' ? item.content.map((part) => part.text) : [])).join('');
  }

  event(type: string, fields: Fields = {}): ResponseStreamEvent {
    return { type, sequence_number: this.#sequence++, ...fields };
  }

  start(): ResponseStreamEvent[] {
    const response = this.snapshot('in_progress');
    return [this.event('response.created', { response }), this.event('response.in_progress', { response })];
  }

  apply(event: AgentEvent): ResponseStreamEvent[] {
    switch (event.type) {
      case 'text':
        return event.delta === '' ? [] : this.#text(event.delta);
      case 'tool_start':
        return [...this.#closeMessage(), ...this.#startCall(event.callId, event.name, event.arguments)];
      case 'tool_end':
        return this.#endCall(event.callId, event.error === undefined ? 'completed' : 'incomplete');
      case 'usage':
        this.#usage = sumUsage(this.#usage, event.usage);
        return [];
      case 'finish':
        this.#finishReason ??= event.reason;
        return [];
      default:
        return [];
    }
  }

  /** The clean end: `response.completed`, or `response.incomplete` when the run hit a length limit. */
  complete(): ResponseStreamEvent[] {
    const closing = this.#closeMessage();
    if (this.#finishReason === 'length') {
      return [...closing, this.event('response.incomplete', { response: this.snapshot('incomplete', 'max_output_tokens') })];
    }
    return [...closing, this.event('response.completed', { response: this.snapshot('completed') })];
  }

  fail(error: unknown): ResponseStreamEvent[] {
    this.failure = error;
    const { code, message } = toOpenAIError(error).body.error;
    return [this.event('response.failed', { response: { ...this.snapshot('failed'), error: { code: code ?? 'server_error', message } } })];
  }

  /** The response object as it stands; items still open are marked with the response's fate. */
  snapshot(status: ResponseStatus, incompleteReason?: string): ResponseObject {
    const settled = status !== 'in_progress' && status !== 'queued';
    const itemStatus: ItemStatus = status === 'completed' ? 'completed' : 'incomplete';
    const { meta } = this;
    return {
      id: meta.id,
      object: 'response',
      created_at: meta.createdAt,
      status,
      background: meta.background,
      error: null,
      incomplete_details: status === 'incomplete' || status === 'cancelled' ? { reason: incompleteReason ?? 'interrupted' } : null,
      instructions: meta.instructions,
      model: meta.model,
      output: this.#items.map((item) => (settled && item.status === 'in_progress' ? { ...item, status: itemStatus } : item)),
      parallel_tool_calls: true,
      previous_response_id: meta.previousResponseId,
      store: meta.store,
      text: { format: { type: 'text' } },
      tool_choice: 'auto',
      tools: [],
      usage: settled ? toResponseUsage(this.#usage) : null,
      metadata: {},
    };
  }

  #text(delta: string): ResponseStreamEvent[] {
    const events: ResponseStreamEvent[] = [];
    if (this.#openMessage === undefined) {
      const item: MessageItem = { id: `msg_${shortId()}`, type: 'message', status: 'in_progress', role: 'assistant', content: [] };
      this.#openMessage = this.#items.push(item) - 1;
      events.push(this.event('response.output_item.added', { output_index: this.#openMessage, item }));
      events.push(
        this.event('response.content_part.added', { ...this.#where(), part: { type: 'output_text', text: '', annotations: [] } }),
      );
    }
    const message = this.#items[this.#openMessage] as MessageItem;
    const text = (message.content[0]?.text ?? '') + delta;
    this.#items[this.#openMessage] = { ...message, content: [{ type: 'output_text', text, annotations: [] }] };
    events.push(this.event('response.output_text.delta', { ...this.#where(), delta, logprobs: [] }));
    return events;
  }

  #where() {
    const index = this.#openMessage!;
    return { item_id: this.#items[index]!.id, output_index: index, content_index: 0 };
  }

  #closeMessage(): ResponseStreamEvent[] {
    if (this.#openMessage === undefined) return [];
    const where = this.#where();
    const message = { ...(this.#items[where.output_index] as MessageItem), status: 'completed' as const };
    const part = message.content[0]!;
    this.#items[where.output_index] = message;
    this.#openMessage = undefined;
    return [
      this.event('response.output_text.done', { ...where, text: part.text, logprobs: [] }),
      this.event('response.content_part.done', { ...where, part }),
      this.event('response.output_item.done', { output_index: where.output_index, item: message }),
    ];
  }

  #startCall(callId: string, name: string, args: string): ResponseStreamEvent[] {
    const item: FunctionCallItem = {
      id: `fc_${shortId()}`,
      type: 'function_call',
      status: 'in_progress',
      call_id: callId,
      name,
      arguments: '',
    };
    const outputIndex = this.#items.push({ ...item, arguments: args }) - 1;
    const where = { item_id: item.id, output_index: outputIndex };
    return [
      this.event('response.output_item.added', { output_index: outputIndex, item }),
      this.event('response.function_call_arguments.delta', { ...where, delta: args }),
      this.event('response.function_call_arguments.done', { ...where, name, arguments: args }),
    ];
  }

  #endCall(callId: string, status: ItemStatus): ResponseStreamEvent[] {
    const index = this.#items.findIndex(
      (item) => item.type === 'function_call' && item.call_id === callId && item.status === 'in_progress',
    );
    if (index < 0) return [];
    const item = { ...this.#items[index]!, status };
    this.#items[index] = item;
    return [this.event('response.output_item.done', { output_index: index, item })];
  }
}

export function toResponseUsage(usage: Usage) {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.totalTokens,
  };
}
