import { PER_IMAGE_TOKENS as PER_IMAGE, PER_MESSAGE_TOKENS as PER_MESSAGE } from '../wire/tokenCount.js';
import type { MessagesBlock, MessagesRequestBody } from './messagesRequestSchema.js';

function blockTokens(count: (text: string) => number, block: MessagesBlock): number {
  switch (block.type) {
    case 'text':
      return count(block.text);
    case 'image':
      return PER_IMAGE;
    case 'tool_use':
      return count(block.name) + count(JSON.stringify(block.input ?? {}));
    case 'tool_result': {
      const { content = '' } = block;
      if (typeof content === 'string') return count(content);
      return content.reduce((sum, part) => sum + (part.type === 'text' ? count(part.text) : PER_IMAGE), 0);
    }
    case 'thinking':
      return count(block.thinking);
    case 'redacted_thinking':
      return 0;
  }
}

/**
 * The request's input tokens, counted with `count` (rxgate's tokenizer): the system prompt, every
 * message's blocks and the tools' names, descriptions and schemas. A real count, never 0 for a
 * request with anything in it; an estimate of what the upstream will count with its own tokenizer.
 */
export function countInputTokens(count: (text: string) => number, { system, messages, tools = [] }: MessagesRequestBody): number {
  let tokens =
    system === undefined
      ? 0
      : PER_MESSAGE + (typeof system === 'string' ? count(system) : system.reduce((sum, block) => sum + count(block.text), 0));
  for (const { content } of messages) {
    tokens +=
      PER_MESSAGE + (typeof content === 'string' ? count(content) : content.reduce((sum, block) => sum + blockTokens(count, block), 0));
  }
  for (const tool of tools) {
    tokens += PER_MESSAGE + count(tool.name) + count(tool.description ?? '') + count(JSON.stringify(tool.input_schema));
  }
  return tokens;
}
