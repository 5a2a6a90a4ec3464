import type { ChatMessage } from './agent.js';

/** The text of the last user message (text parts joined), or "" when there is none. */
export function lastUserText(messages: readonly ChatMessage[]): string {
  const last = messages.findLast((message) => message.role === 'user');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return last.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ');
}
