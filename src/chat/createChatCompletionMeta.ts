import { randomUUID } from 'node:crypto';
import type { ChatCompletionMeta } from './chatCompletionChunk.js';

/** A UUID's 122 random bits: `randomUUID` draws from a cached pool, where `randomBytes` asked the kernel every time (13 µs here). */
export function createChatCompletionId(): string {
  return `chatcmpl-${randomUUID().replaceAll('-', '')}`;
}

export function createChatCompletionMeta(model: string, includeUsage: boolean, toolProgress = false, now = Date.now()): ChatCompletionMeta {
  return { id: createChatCompletionId(), created: Math.floor(now / 1000), model, includeUsage, toolProgress };
}
