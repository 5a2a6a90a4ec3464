import type { ChatMessage } from './agent.js';

/** Whether a message's content says something: non-blank text, or an image. */
export function hasText(content: ChatMessage['content']): boolean {
  return typeof content === 'string'
    ? content.trim() !== ''
    : (content ?? []).some((part) => part.type !== 'text' || part.text.trim() !== '');
}
