import { isRecord } from './isRecord.js';
import { PER_IMAGE_TOKENS, PER_MESSAGE_TOKENS, type Counter } from './tokenCount.js';

/** A message's content: a string, or parts of text and images. */
function contentTokens(count: Counter, content: unknown): number {
  if (typeof content === 'string') return count(content);
  if (!Array.isArray(content)) return 0;
  let tokens = 0;
  for (const part of content as unknown[]) {
    if (!isRecord(part)) continue;
    if (part.type === 'image_url') tokens += PER_IMAGE_TOKENS;
    else if (typeof part.text === 'string') tokens += count(part.text);
  }
  return tokens;
}

function toolCallTokens(count: Counter, toolCalls: unknown): number {
  if (!Array.isArray(toolCalls)) return 0;
  let tokens = 0;
  for (const call of toolCalls as unknown[]) {
    const fn = isRecord(call) && isRecord(call.function) ? call.function : {};
    tokens += count(typeof fn.name === 'string' ? fn.name : '') + count(typeof fn.arguments === 'string' ? fn.arguments : '');
  }
  return tokens;
}

/**
 * The input tokens of a Chat Completions request `body`, counted with `count` (rxgate's tokenizer):
 * every message's content and tool calls, and the tools as their JSON. An estimate of what the
 * upstream counts with its own tokenizer, for a call whose upstream reported no usage.
 *
 * @example
 * countChatInput(count, { messages: [{ role: 'user', content: 'hello world' }] }) // 5
 */
export function countChatInput(count: Counter, body: Readonly<Record<string, unknown>>): number {
  let tokens = 0;
  for (const message of Array.isArray(body.messages) ? (body.messages as unknown[]) : []) {
    if (!isRecord(message)) continue;
    tokens += PER_MESSAGE_TOKENS + contentTokens(count, message.content) + toolCallTokens(count, message.tool_calls);
  }
  for (const tool of Array.isArray(body.tools) ? (body.tools as unknown[]) : []) tokens += PER_MESSAGE_TOKENS + count(JSON.stringify(tool));
  return tokens;
}
