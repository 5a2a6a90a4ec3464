import { isRecord } from '../../wire/isRecord.js';
import { toImageBlock } from './toImageBlock.js';

type Block = Record<string, unknown>;

/** The `system` and `messages` of a Messages request. */
export interface MessagesTurns {
  readonly system?: readonly Block[];
  readonly messages: readonly { readonly role: 'user' | 'assistant'; readonly content: readonly Block[] }[];
}

/** Chat content (a string or parts) as blocks: text parts as `text`, `image_url` parts as `image`; an empty text is no block (Anthropic refuses one). */
function toBlocks(content: unknown): Block[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part: unknown): Block[] => {
    if (!isRecord(part)) return [];
    if (part.type === 'text' && typeof part.text === 'string' && part.text !== '') return [{ type: 'text', text: part.text }];
    if (part.type === 'image_url' && isRecord(part.image_url) && typeof part.image_url.url === 'string')
      return [toImageBlock(part.image_url.url)];
    return [];
  });
}

/** A tool call's arguments as the `input` object a `tool_use` block must carry; arguments that are no JSON object are `{}`. */
function toInput(args: unknown): Record<string, unknown> {
  if (typeof args !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(args);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function toolUses(calls: unknown): Block[] {
  if (!Array.isArray(calls)) return [];
  return calls.flatMap((call: unknown): Block[] => {
    if (!isRecord(call) || !isRecord(call.function)) return [];
    return [{ type: 'tool_use', id: call.id, name: call.function.name, input: toInput(call.function.arguments) }];
  });
}

/**
 * A chat completions conversation as a Messages one: `system` and `developer` messages are the
 * `system` blocks, in order; an assistant's tool calls are `tool_use` blocks after its text; a
 * `tool` message is a `tool_result` block of a user turn. Consecutive turns of one role are one
 * turn, since Anthropic wants them to alternate (the results of parallel calls, a user's text
 * after them), and a turn with no block is none.
 */
export function toMessagesTurns(messages: readonly unknown[]): MessagesTurns {
  const system: Block[] = [];
  const turns: { role: 'user' | 'assistant'; content: Block[] }[] = [];
  const add = (role: 'user' | 'assistant', blocks: Block[]) => {
    if (blocks.length === 0) return;
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const message of messages) {
    if (!isRecord(message)) continue;
    const { role, content } = message;
    if (role === 'system' || role === 'developer') system.push(...toBlocks(content).filter((block) => block.type === 'text'));
    else if (role === 'user') add('user', toBlocks(content));
    else if (role === 'assistant') add('assistant', [...toBlocks(content), ...toolUses(message.tool_calls)]);
    else if (role === 'tool') {
      const result = typeof content === 'string' ? content : toBlocks(content);
      add('user', [{ type: 'tool_result', tool_use_id: message.tool_call_id, content: result }]);
    }
  }
  return { ...(system.length > 0 ? { system } : {}), messages: turns };
}
