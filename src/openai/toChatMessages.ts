import type { ChatMessage, ContentPart, ToolCall } from '../agent/agent.js';
import { customArguments } from './customToolArguments.js';
import { answeredCallId, executedCallArguments, executedOutputText, executedToolOf } from './executedToolCalls.js';
import type { InputItem, MessageInput } from './parseResponseInput.js';

/** An input item and the index of the `input` entry it came from (a reference's, for what it resolved to). */
export interface SourcedItem {
  readonly item: InputItem;
  readonly source: number;
}

export interface ChatConversation {
  readonly messages: ChatMessage[];
  /** The `input` index each message came from. */
  readonly sources: number[];
}

type Part = Exclude<MessageInput['content'], string>[number];

function toContentPart(part: Part): ContentPart {
  switch (part.type) {
    case 'input_image':
      return { type: 'image_url', image_url: { url: part.image_url, ...(part.detail ? { detail: part.detail } : {}) } };
    case 'refusal':
      return { type: 'text', text: part.refusal };
    default:
      return { type: 'text', text: part.text };
  }
}

const textOf = (content: MessageInput['content']): string =>
  typeof content === 'string'
    ? content
    : content.map((part) => (part.type === 'refusal' ? part.refusal : part.type === 'input_image' ? '' : part.text)).join('');

/**
 * Input items as the chat messages an upstream reads. Assistant text and the `function_call` and
 * `custom_tool_call` items after it become one assistant message with `tool_calls` (a custom tool's
 * and a client-executed tool's as a call of the function standing in for it); a call's output a `tool` message; reasoning and the agent's own tool calls nothing (the model gets the answer that
 * followed them, as in a stored conversation). Assistant text goes as plain text, which every
 * upstream accepts.
 */
export function toChatMessages(items: readonly SourcedItem[]): ChatConversation {
  const messages: ChatMessage[] = [];
  const sources: number[] = [];
  let assistant: { content: string | null; toolCalls: ToolCall[]; source: number } | undefined;
  const push = (message: ChatMessage, source: number) => {
    messages.push(message);
    sources.push(source);
  };
  const flush = () => {
    if (!assistant) return;
    const { content, toolCalls, source } = assistant;
    push(
      toolCalls.length > 0 ? { role: 'assistant', content, tool_calls: toolCalls } : { role: 'assistant', content: content ?? '' },
      source,
    );
    assistant = undefined;
  };
  for (const { item, source } of items) {
    switch (item.type) {
      case 'message':
        flush();
        if (item.role === 'assistant') assistant = { content: textOf(item.content), toolCalls: [], source };
        else push({ role: item.role, content: typeof item.content === 'string' ? item.content : item.content.map(toContentPart) }, source);
        break;
      case 'function_call':
        assistant ??= { content: null, toolCalls: [], source };
        assistant.toolCalls.push({ id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments } });
        break;
      case 'custom_tool_call':
        assistant ??= { content: null, toolCalls: [], source };
        assistant.toolCalls.push({
          id: item.call_id,
          type: 'function',
          function: { name: item.name, arguments: customArguments(item.input) },
        });
        break;
      case 'local_shell_call':
      case 'shell_call':
      case 'apply_patch_call':
        assistant ??= { content: null, toolCalls: [], source };
        assistant.toolCalls.push({
          id: item.call_id,
          type: 'function',
          function: { name: executedToolOf(item), arguments: executedCallArguments(item) },
        });
        break;
      case 'local_shell_call_output':
      case 'shell_call_output':
      case 'apply_patch_call_output':
        flush();
        push({ role: 'tool', tool_call_id: answeredCallId(item), content: executedOutputText(item) }, source);
        break;
      case 'function_call_output':
      case 'custom_tool_call_output':
        flush();
        push(
          { role: 'tool', tool_call_id: item.call_id, content: typeof item.output === 'string' ? item.output : textOf(item.output) },
          source,
        );
        break;
      default:
        break;
    }
  }
  flush();
  return { messages, sources };
}
