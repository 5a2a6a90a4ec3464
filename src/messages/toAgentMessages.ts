import type { ChatMessage, ContentPart, ToolCall } from '../agent/agent.js';
import type { MessagesBlock, MessagesMessage } from './messagesRequestSchema.js';

type SystemPrompt = string | readonly { readonly text: string }[];
type ImageBlock = Extract<MessagesBlock, { type: 'image' }>;

const joinTexts = (blocks: readonly { readonly text: string }[]): string => blocks.map((block) => block.text).join('\n\n');

function imagePart({ source }: ImageBlock): ContentPart {
  const url = source.type === 'base64' ? `data:${source.media_type as string};base64,${source.data as string}` : (source.url as string);
  return { type: 'image_url', image_url: { url } };
}

/** A user's parts as chat content: a lone text as a string, which every upstream reads. */
const asContent = (parts: readonly ContentPart[]): string | readonly ContentPart[] =>
  parts.length === 1 && parts[0]!.type === 'text' ? parts[0]!.text : parts;

/**
 * A user message's blocks as chat messages: each `tool_result` a `tool` message (first, since chat
 * wants them right after the assistant's calls), then the rest as one user message, with the
 * images of the tool results in it (a `tool` message carries only text). An `is_error` result
 * says so in its text, the one place a chat model can read it.
 */
function fromUser(blocks: readonly MessagesBlock[]): ChatMessage[] {
  const results: ChatMessage[] = [];
  const parts: ContentPart[] = [];
  for (const block of blocks) {
    if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'image') parts.push(imagePart(block));
    else if (block.type === 'tool_result') {
      const content = block.content ?? '';
      const texts = typeof content === 'string' ? content : joinTexts(content.filter((part) => part.type === 'text') as { text: string }[]);
      if (typeof content !== 'string') for (const part of content) if (part.type === 'image') parts.push(imagePart(part));
      results.push({ role: 'tool', tool_call_id: block.tool_use_id, content: block.is_error ? `Error: ${texts}` : texts });
    }
  }
  return parts.length > 0 ? [...results, { role: 'user', content: asContent(parts) }] : results;
}

/** An assistant message's blocks: its text, and its `tool_use` blocks as tool calls; thinking is the model's own and is not sent back as text. */
function fromAssistant(blocks: readonly MessagesBlock[]): ChatMessage {
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const block of blocks) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'tool_use') {
      toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } });
    }
  }
  return toolCalls.length > 0
    ? { role: 'assistant', content: text === '' ? null : text, tool_calls: toolCalls }
    : { role: 'assistant', content: text };
}

function fromMessage({ role, content }: MessagesMessage): ChatMessage[] {
  if (typeof content === 'string') return [{ role, content }];
  if (role === 'system') return [{ role, content: joinTexts(content.filter((block) => block.type === 'text')) }];
  return role === 'user' ? fromUser(content) : [fromAssistant(content)];
}

/**
 * A Messages request's system prompt and messages as the chat conversation the agent runs: the
 * system prompt first, a `system` message (Claude Code's environment block) where it stands.
 *
 * @example
 * toAgentMessages('Be brief.', [{ role: 'user', content: 'hi' }]) // [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }]
 */
export function toAgentMessages(system: SystemPrompt | undefined, messages: readonly MessagesMessage[]): ChatMessage[] {
  const prompt = system === undefined ? '' : typeof system === 'string' ? system : joinTexts(system);
  return [...(prompt === '' ? [] : [{ role: 'system' as const, content: prompt }]), ...messages.flatMap(fromMessage)];
}
