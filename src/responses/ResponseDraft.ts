import { usageCost } from '../agent/usageCost.js';
import type { ToolCall } from '../agent/agent.js';
import type { AgentEvent, AgentEventOf, FinishReason, Usage } from '../agent/agentEvent.js';
import { sumUsage, ZERO_USAGE } from '../agent/sumUsage.js';
import { itemId } from '../openai/itemIds.js';
import { toResponseError } from './toResponseError.js';
import { clientCallKinds, type ClientCallKind } from './clientCallKinds.js';
import { customArguments, customInput } from '../openai/customToolArguments.js';
import { executedCallArguments, executedToolOf, toExecutedCall, type ExecutedToolType } from '../openai/executedToolCalls.js';
import { endHostedCall, HOSTED_CALL_ID_PREFIX, startHostedCall } from '../openai/hostedCallItems.js';
import {
  DEFAULT_ECHO,
  SERVER_LABEL,
  type CustomToolCallItem,
  type FunctionCallItem,
  type HostedCallItem,
  type ItemStatus,
  type McpApprovalRequestItem,
  type McpCallItem,
  type MessageItem,
  type MessagePart,
  type OutputItem,
  type ReasoningItem,
  type ResponseMeta,
  type ResponseObject,
  type ResponseStatus,
  type ResponseUsage,
  type ResponseStreamEvent,
} from '../openai/responseObject.js';

type Fields = Record<string, unknown>;

/** A call of a client-executed tool while its arguments stream: its item is built from them when it closes. */
interface HeldCall {
  readonly callId: string;
  readonly tool: ExecutedToolType;
  arguments: string;
}

/** The id prefix of each client-executed tool's call items. */
const EXECUTED_ID_PREFIX: Readonly<Record<ExecutedToolType, string>> = { local_shell: 'lsh', shell: 'sh', apply_patch: 'apc' };

/** The finishes that leave a response `incomplete`, and the `incomplete_details.reason` OpenAI gives each. */
const INCOMPLETE_REASONS: ReadonlyMap<FinishReason | undefined, string> = new Map([
  ['length', 'max_output_tokens'],
  ['content_filter', 'content_filter'],
]);

const isHostedCall = (item: OutputItem | undefined): item is HostedCallItem =>
  item?.type === 'web_search_call' || item?.type === 'file_search_call';

/** An item still in progress, with the fate of the response it is in. */
function settle(item: OutputItem, status: Exclude<ItemStatus, 'in_progress'>): OutputItem {
  return isHostedCall(item) ? endHostedCall(item, status) : ({ ...item, status } as OutputItem);
}

/**
 * The response being built from one run: its output items, usage and sequence numbers. The
 * encoder asks it for the events each agent event implies; whoever ends a run early asks it for
 * a snapshot of what was said so far.
 *
 * Each stretch of text is a `message` item and each stretch of reasoning a `reasoning` item (its
 * text as one `summary_text` part, which is where the SDKs read reasoning). A tool the agent runs
 * itself is an `mcp_call` item with `server_label: "rxgate"` (an MCP tool: its server's name and its own name there), as OpenAI reports the tools it runs
 * on its side: the SDKs show it without taking it for a call the client must answer. A call of a
 * client tool is a `function_call` item, which the client answers with a `function_call_output`
 * (with the `namespace` of the tool group it belongs to, if any); a call of a `custom` tool is a
 * `custom_tool_call` item whose `input` is the text the model gave the function standing in for it;
 * a call of a client-executed tool (`shell`, `local_shell`, `apply_patch`) is that tool's own call
 * item, built from the function's arguments when the call is whole (added and done together).
 * A call that waits for a person's approval is an `mcp_approval_request` item (its id `mcpr_<call id>`),
 * which the client answers with an `mcp_approval_response`.
 */
export class ResponseDraft {
  readonly #items: OutputItem[] = [];
  /** The output index of the message or reasoning item that text streams into. */
  #open: number | undefined;
  /** Client call index -> output index, for the calls whose arguments may still grow. */
  readonly #openCalls = new Map<number, number>();
  /** The client's tools whose calls are not plain `function_call` items, by name. */
  readonly #callKinds: ReadonlyMap<string, ClientCallKind>;
  /** The arguments of the open custom tool calls so far, by output index: their input is known when they close. */
  readonly #customArguments = new Map<number, string>();
  /** The open calls of client-executed tools, by client call index: their items are added when they close. */
  readonly #heldCalls = new Map<number, HeldCall>();
  /** The agent's own calls, by call id -> output index. */
  readonly #serverCalls = new Map<string, number>();
  /** The calls that wait for a person's answer, as the assistant message of the conversation carries them. */
  readonly #awaitingApproval: ToolCall[] = [];
  /** What each call the agent ran (or refused) came to, as the model read it: by call id. */
  readonly #outcomes = new Map<string, string>();
  #usage: Usage = ZERO_USAGE;
  #finishReason: FinishReason | undefined;
  #sequence = 0;
  #interruption: ResponseStreamEvent[] | undefined;
  /** What the run failed with, once `fail` was called (a non-streaming answer reports it as an HTTP error). */
  failure: unknown;

  constructor(readonly meta: ResponseMeta) {
    this.#callKinds = clientCallKinds(meta.echo?.tools ?? []);
  }

  /** The text of every message item, as the SDKs' `output_text` joins it. */
  get outputText(): string {
    return this.#messageText((part) => (part.type === 'output_text' ? part.text : ''));
  }

  /** What the model said, refusals included, as the assistant message of the conversation carries it. */
  get answerText(): string {
    return this.#messageText((part) => (part.type === 'output_text' ? part.text : part.refusal));
  }

  /**
   * The calls the answer leaves for the client, as the assistant message of the conversation
   * carries them: its client tool calls, and the calls waiting for approval (which the next request resumes).
   */
  get toolCalls(): ToolCall[] {
    const clientCalls = this.#items.flatMap((item): ToolCall[] => {
      if (item.type === 'function_call')
        return [{ id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments } }];
      if (item.type === 'custom_tool_call') {
        return [{ id: item.call_id, type: 'function', function: { name: item.name, arguments: customArguments(item.input) } }];
      }
      if (item.type === 'local_shell_call' || item.type === 'shell_call' || item.type === 'apply_patch_call') {
        return [{ id: item.call_id, type: 'function', function: { name: executedToolOf(item), arguments: executedCallArguments(item) } }];
      }
      return [];
    });
    return [...clientCalls, ...this.#awaitingApproval];
  }

  /** What call `callId` came to, as the model read it (its result, or `Error: ...`), if it ended in this run. */
  outcomeOf(callId: string): string | undefined {
    return this.#outcomes.get(callId);
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
        return event.delta === '' ? [] : this.#messageDelta('output_text', event.delta);
      case 'reasoning':
        return event.delta === '' ? [] : this.#reasoning(event.delta);
      case 'refusal':
        return event.delta === '' ? [] : this.#messageDelta('refusal', event.delta);
      case 'tool_start':
        return [...this.#close(), ...this.#startServerCall(event)];
      case 'tool_end':
        this.#outcomes.set(event.callId, event.error === undefined ? (event.result ?? '') : `Error: ${event.error}`);
        return this.#endServerCall(event);
      case 'approval_required':
        return [...this.#close(), ...this.#approvalRequest(event)];
      case 'tool_call_delta':
        return this.#clientCall(event);
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

  /** The clean end: `response.completed`, or `response.incomplete` when the run hit a length limit or the upstream's content filter. */
  complete(): ResponseStreamEvent[] {
    const cutOff = INCOMPLETE_REASONS.get(this.#finishReason);
    // The item the cut fell in was cut short with it, as OpenAI marks it; items closed before it are whole.
    const itemStatus: ItemStatus = cutOff ? 'incomplete' : 'completed';
    const closing = [...this.#close(itemStatus), ...this.#closeCalls(itemStatus)];
    if (cutOff) {
      return [...closing, this.event('response.incomplete', { response: this.snapshot('incomplete', cutOff) })];
    }
    return [...closing, this.event('response.completed', { response: this.snapshot('completed') })];
  }

  /**
   * The end of a response that was interrupted (a stop, shutdown, a client that left): the items
   * still open closed as `incomplete` (a tool of the agent's own that was running among them), as
   * `complete` closes those a limit cut, then `response.incomplete`. The same events on every
   * call, so that a stream and the log it is kept in end alike.
   */
  interrupted(): ResponseStreamEvent[] {
    this.#interruption ??= [
      ...this.#close('incomplete'),
      ...this.#closeCalls('incomplete'),
      ...this.#closeServerCalls(),
      this.event('response.incomplete', { response: this.snapshot('incomplete', 'interrupted') }),
    ];
    return this.#interruption;
  }

  fail(error: unknown): ResponseStreamEvent[] {
    this.failure = error;
    return [this.event('response.failed', { response: { ...this.snapshot('failed'), error: toResponseError(error) } })];
  }

  /** The response object as it stands; items still open are marked with the response's fate. */
  snapshot(status: ResponseStatus, incompleteReason?: string): ResponseObject {
    const settled = status !== 'in_progress' && status !== 'queued';
    const itemStatus = status === 'completed' ? 'completed' : 'incomplete';
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
      output: this.#items.map((item) => (settled && 'status' in item && item.status === 'in_progress' ? settle(item, itemStatus) : item)),
      previous_response_id: meta.previousResponseId,
      conversation: meta.conversation ? { id: meta.conversation } : null,
      store: meta.store,
      ...(meta.echo ?? DEFAULT_ECHO),
      usage: settled ? toResponseUsage(this.#usage) : null,
    };
  }

  #add(item: OutputItem): { output_index: number; item: OutputItem } {
    return { output_index: this.#items.push(item) - 1, item };
  }

  #newId(prefix: string): string {
    return itemId(prefix, this.meta.id, 'output', this.#items.length);
  }

  #messageText(textOf: (part: MessagePart) => string): string {
    return this.#items.flatMap((item) => (item.type === 'message' ? item.content.map(textOf) : [])).join('');
  }

  /**
   * A delta of the answer's text or of a refusal, appended to the open message if its part is of
   * that type, else to a new message: a refusal is a message of its own, as OpenAI sends it, one
   * part, never mixed with text.
   */
  #messageDelta(type: MessagePart['type'], delta: string): ResponseStreamEvent[] {
    const events = this.#openPart()?.type === type ? [] : [...this.#close(), ...this.#openMessage(type)];
    const index = this.#open!;
    const message = this.#items[index] as MessageItem;
    const part = message.content[0]!;
    const grown: MessagePart =
      part.type === 'refusal'
        ? { type: 'refusal', refusal: part.refusal + delta }
        : { type: 'output_text', text: part.text + delta, annotations: [] };
    this.#items[index] = { ...message, content: [grown] };
    const where = this.#where();
    events.push(
      type === 'refusal'
        ? this.event('response.refusal.delta', { ...where, delta })
        : this.event('response.output_text.delta', { ...where, delta, logprobs: [] }),
    );
    return events;
  }

  /** The part of the open message item, if a message is open. */
  #openPart(): MessagePart | undefined {
    const item = this.#items[this.#open ?? -1];
    return item?.type === 'message' ? item.content[0] : undefined;
  }

  #openMessage(type: MessagePart['type']): ResponseStreamEvent[] {
    const part: MessagePart = type === 'refusal' ? { type, refusal: '' } : { type, text: '', annotations: [] };
    const item: MessageItem = { id: this.#newId('msg'), type: 'message', status: 'in_progress', role: 'assistant', content: [] };
    const added = this.#add(item);
    this.#open = added.output_index;
    this.#items[added.output_index] = { ...item, content: [part] };
    return [this.event('response.output_item.added', added), this.event('response.content_part.added', { ...this.#where(), part })];
  }

  #reasoning(delta: string): ResponseStreamEvent[] {
    const events = this.#items[this.#open ?? -1]?.type === 'reasoning' ? [] : [...this.#close(), ...this.#openReasoning()];
    const index = this.#open!;
    const reasoning = this.#items[index] as ReasoningItem;
    const text = (reasoning.summary[0]?.text ?? '') + delta;
    this.#items[index] = { ...reasoning, summary: [{ type: 'summary_text', text }] };
    events.push(this.event('response.reasoning_summary_text.delta', { ...this.#summaryWhere(), delta }));
    return events;
  }

  #openReasoning(): ResponseStreamEvent[] {
    const item: ReasoningItem = { id: this.#newId('rs'), type: 'reasoning', status: 'in_progress', summary: [] };
    const added = this.#add(item);
    this.#open = added.output_index;
    return [
      this.event('response.output_item.added', added),
      this.event('response.reasoning_summary_part.added', { ...this.#summaryWhere(), part: { type: 'summary_text', text: '' } }),
    ];
  }

  #where() {
    const index = this.#open!;
    return { item_id: this.#items[index]!.id, output_index: index, content_index: 0 };
  }

  #summaryWhere() {
    const index = this.#open!;
    return { item_id: this.#items[index]!.id, output_index: index, summary_index: 0 };
  }

  /** Closes the open message or reasoning item, if any, with `status`. */
  #close(status: ItemStatus = 'completed'): ResponseStreamEvent[] {
    const index = this.#open;
    const item = index === undefined ? undefined : this.#items[index];
    if (index === undefined || !item || (item.type !== 'message' && item.type !== 'reasoning')) return [];
    this.#open = undefined;
    if (item.type === 'reasoning') {
      const where = { item_id: item.id, output_index: index, summary_index: 0 };
      const closed: ReasoningItem = { ...item, status };
      const part = closed.summary[0] ?? { type: 'summary_text', text: '' };
      this.#items[index] = closed;
      return [
        this.event('response.reasoning_summary_text.done', { ...where, text: part.text }),
        this.event('response.reasoning_summary_part.done', { ...where, part }),
        this.event('response.output_item.done', { output_index: index, item: closed }),
      ];
    }
    const where = { item_id: item.id, output_index: index, content_index: 0 };
    const message: MessageItem = { ...item, status };
    const part = message.content[0]!;
    this.#items[index] = message;
    return [
      part.type === 'refusal'
        ? this.event('response.refusal.done', { ...where, refusal: part.refusal })
        : this.event('response.output_text.done', { ...where, text: part.text, logprobs: [] }),
      this.event('response.content_part.done', { ...where, part }),
      this.event('response.output_item.done', { output_index: index, item: message }),
    ];
  }

  #startServerCall({ callId, name, arguments: args, origin }: AgentEventOf<'tool_start'>): ResponseStreamEvent[] {
    const hosted = this.meta.hostedCalls?.[name];
    if (hosted) return this.#startHostedCall(callId, hosted, args);
    const item: McpCallItem = {
      id: this.#newId('mcp'),
      type: 'mcp_call',
      status: 'in_progress',
      // An MCP tool is shown as its server shows it; rxgate's own tools are rxgate's.
      server_label: origin?.server ?? SERVER_LABEL,
      name: origin?.tool ?? name,
      arguments: '',
      output: null,
      error: null,
    };
    const added = this.#add(item);
    this.#items[added.output_index] = { ...item, arguments: args };
    this.#serverCalls.set(callId, added.output_index);
    const where = { item_id: item.id, output_index: added.output_index };
    return [
      this.event('response.output_item.added', added),
      this.event('response.mcp_call.in_progress', where),
      this.event('response.mcp_call_arguments.delta', { ...where, delta: args }),
      this.event('response.mcp_call_arguments.done', { ...where, arguments: args }),
    ];
  }

  /** A call of the server tool standing in for a hosted one, reported as the hosted call's item and events. */
  #startHostedCall(callId: string, type: HostedCallItem['type'], args: string): ResponseStreamEvent[] {
    const added = this.#add(startHostedCall(type, this.#newId(HOSTED_CALL_ID_PREFIX[type]), args));
    this.#serverCalls.set(callId, added.output_index);
    const where = { item_id: added.item.id, output_index: added.output_index };
    return [
      this.event('response.output_item.added', added),
      this.event(`response.${type}.in_progress`, where),
      this.event(`response.${type}.searching`, where),
    ];
  }

  #endServerCall({ callId, result, error }: AgentEventOf<'tool_end'>): ResponseStreamEvent[] {
    const index = this.#serverCalls.get(callId);
    if (index === undefined) return [];
    this.#serverCalls.delete(callId);
    const failed = error !== undefined;
    const current = this.#items[index];
    if (isHostedCall(current)) {
      const item = endHostedCall(current, failed ? 'failed' : 'completed');
      this.#items[index] = item;
      // OpenAI has no event for a failed search: the item's status says it.
      const completed = failed ? [] : [this.event(`response.${item.type}.completed`, { item_id: item.id, output_index: index })];
      return [...completed, this.event('response.output_item.done', { output_index: index, item })];
    }
    const item: McpCallItem = {
      ...(this.#items[index] as McpCallItem),
      status: failed ? 'failed' : 'completed',
      output: failed ? null : (result ?? ''),
      error: error ?? null,
    };
    this.#items[index] = item;
    return [
      this.event(failed ? 'response.mcp_call.failed' : 'response.mcp_call.completed', { item_id: item.id, output_index: index }),
      this.event('response.output_item.done', { output_index: index, item }),
    ];
  }

  /** The agent's own calls still running, closed as `incomplete`: they neither answered nor failed. */
  #closeServerCalls(): ResponseStreamEvent[] {
    const indexes = [...this.#serverCalls.values()];
    this.#serverCalls.clear();
    return indexes.map((index) => {
      const item = settle(this.#items[index]!, 'incomplete');
      this.#items[index] = item;
      return this.event('response.output_item.done', { output_index: index, item });
    });
  }

  #approvalRequest({ approvalId, callId, name, arguments: args, origin }: AgentEventOf<'approval_required'>): ResponseStreamEvent[] {
    this.#awaitingApproval.push({ id: callId, type: 'function', function: { name, arguments: args } });
    const item: McpApprovalRequestItem = {
      id: approvalId,
      type: 'mcp_approval_request',
      server_label: origin?.server ?? SERVER_LABEL,
      name: origin?.tool ?? name,
      arguments: args,
    };
    const added = this.#add(item);
    return [this.event('response.output_item.added', added), this.event('response.output_item.done', added)];
  }

  #clientCall(delta: AgentEventOf<'tool_call_delta'>): ResponseStreamEvent[] {
    const events: ResponseStreamEvent[] = [];
    let index = this.#openCalls.get(delta.index);
    let held = this.#heldCalls.get(delta.index);
    if (index === undefined && held === undefined) {
      // Calls come one after the other (sequenceToolCalls): a new one means the previous one is whole.
      if (delta.id === undefined) return [];
      events.push(...this.#close(), ...this.#closeCalls('completed'));
      const kind = this.#callKinds.get(delta.name ?? '');
      if (kind && kind.item !== 'function' && kind.item !== 'custom') {
        held = { callId: delta.id, tool: kind.item, arguments: '' };
        this.#heldCalls.set(delta.index, held);
      } else {
        const added = this.#add(this.#newCall(delta.id, delta.name ?? '', kind));
        index = added.output_index;
        this.#openCalls.set(delta.index, index);
        events.push(this.event('response.output_item.added', added));
      }
    }
    if (delta.arguments === '') return events;
    if (held) {
      held.arguments += delta.arguments;
      return events;
    }
    const custom = this.#customArguments.get(index!);
    if (custom !== undefined) {
      this.#customArguments.set(index!, custom + delta.arguments);
      return events;
    }
    const call = this.#items[index!] as FunctionCallItem;
    this.#items[index!] = { ...call, arguments: call.arguments + delta.arguments };
    events.push(this.event('response.function_call_arguments.delta', { item_id: call.id, output_index: index, delta: delta.arguments }));
    return events;
  }

  #newCall(callId: string, name: string, kind: ClientCallKind | undefined): FunctionCallItem | CustomToolCallItem {
    const namespace = kind?.namespace === undefined ? {} : { namespace: kind.namespace };
    if (kind?.item !== 'custom') {
      return { id: this.#newId('fc'), type: 'function_call', status: 'in_progress', call_id: callId, name, arguments: '', ...namespace };
    }
    this.#customArguments.set(this.#items.length, '');
    return { id: this.#newId('ctc'), type: 'custom_tool_call', status: 'in_progress', call_id: callId, name, input: '', ...namespace };
  }

  #closeCalls(status: ItemStatus): ResponseStreamEvent[] {
    const indexes = [...this.#openCalls.values()];
    this.#openCalls.clear();
    const held = [...this.#heldCalls.values()];
    this.#heldCalls.clear();
    return [...this.#closeOpenCalls(indexes, status), ...held.flatMap((call) => this.#addExecutedCall(call, status))];
  }

  /**
   * A client-executed tool's call, whole: its own item when the model's arguments describe one,
   * else the `function_call` the model made (so that nothing it wrote is lost), opened with its
   * arguments and closed as every function call is.
   */
  #addExecutedCall(call: HeldCall, status: ItemStatus): ResponseStreamEvent[] {
    const base = { call_id: call.callId, status };
    const item = toExecutedCall(call.tool, { ...base, id: this.#newId(EXECUTED_ID_PREFIX[call.tool]) }, call.arguments);
    if (item === undefined) return this.#addMadeCall(call, status);
    const { output_index } = this.#add(item);
    return [
      this.event('response.output_item.added', { output_index, item: { ...item, status: 'in_progress' } }),
      this.event('response.output_item.done', { output_index, item }),
    ];
  }

  #addMadeCall(call: HeldCall, status: ItemStatus): ResponseStreamEvent[] {
    const open: FunctionCallItem = {
      call_id: call.callId,
      status: 'in_progress',
      id: this.#newId('fc'),
      type: 'function_call',
      name: call.tool,
      arguments: '',
    };
    const { output_index } = this.#add(open);
    const events = [this.event('response.output_item.added', { output_index, item: open })];
    if (call.arguments !== '') {
      this.#items[output_index] = { ...open, arguments: call.arguments };
      events.push(this.event('response.function_call_arguments.delta', { item_id: open.id, output_index, delta: call.arguments }));
    }
    return [...events, ...this.#closeOpenCalls([output_index], status)];
  }

  #closeOpenCalls(indexes: readonly number[], status: ItemStatus): ResponseStreamEvent[] {
    return indexes.flatMap((index) => {
      const open = this.#items[index] as FunctionCallItem | CustomToolCallItem;
      const where = { item_id: open.id, output_index: index };
      if (open.type === 'function_call') {
        const item: FunctionCallItem = { ...open, status };
        this.#items[index] = item;
        return [
          this.event('response.function_call_arguments.done', { ...where, name: item.name, arguments: item.arguments }),
          this.event('response.output_item.done', { output_index: index, item }),
        ];
      }
      const item: CustomToolCallItem = { ...open, status, input: customInput(this.#customArguments.get(index) ?? '') };
      this.#customArguments.delete(index);
      this.#items[index] = item;
      return [
        ...(item.input === '' ? [] : [this.event('response.custom_tool_call_input.delta', { ...where, delta: item.input })]),
        this.event('response.custom_tool_call_input.done', { ...where, input: item.input }),
        this.event('response.output_item.done', { output_index: index, item }),
      ];
    });
  }
}

export function toResponseUsage(usage: Usage): ResponseUsage {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.totalTokens,
    ...usageCost(usage),
  };
}
