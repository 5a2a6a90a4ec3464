import { randomBytes } from 'node:crypto';
import type { ChatCompletionMeta } from './chatCompletionChunk.js';

export function createChatCompletionId(): string {
  return `chatcmpl-${randomBytes(12).toString('base64url')}`;
}

export function createChatCompletionMeta(model: string, includeUsage: boolean, now = Date.now()): ChatCompletionMeta {
  return { id: createChatCompletionId(), created: Math.floor(now / 1000), model, includeUsage };
}
