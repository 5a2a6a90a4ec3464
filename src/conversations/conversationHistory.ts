import type { ChatMessage } from '../agent/agent.js';
import { RequestError } from '../errors/RequestError.js';
import { parseStoredItem, type InputItem } from '../openai/parseResponseInput.js';
import { toChatMessages, type SourcedItem } from '../openai/toChatMessages.js';
import { itemBytes, type ConversationItem } from '../store/ConversationStore.js';

export const conversationTooLarge = (id: string, bytes: number, maxBytes: number): RequestError =>
  new RequestError(
    400,
    `conversation '${id}' is ${bytes} bytes, over the limit of ${maxBytes} (RXGATE_MAX_CONVERSATION_BYTES); ` +
      'send truncation: "auto" to leave its oldest items out, or delete some of them',
    'invalid_request_error',
    'conversation',
    'conversation_too_large',
  );

/** A message of one text part (as items are listed) as the plain text it was sent as, which the upstream reads the same. */
function asPlainText(item: InputItem): InputItem {
  if (item.type !== 'message' || typeof item.content === 'string' || item.content.length !== 1) return item;
  const [part] = item.content;
  return part!.type === 'input_text' ? { ...item, content: part!.text } : item;
}

/**
 * The newest items that fit in `maxBytes` (each counts its JSON's bytes), starting at a message so
 * that no tool result is left without its call. Oldest first.
 */
function newestWithin(items: readonly ConversationItem[], maxBytes: number): ConversationItem[] {
  let bytes = 0;
  let start = items.length;
  while (start > 0 && bytes + itemBytes(items[start - 1]!) <= maxBytes) bytes += itemBytes(items[--start]!);
  while (start < items.length && items[start]!.type !== 'message') start++;
  return items.slice(start);
}

/**
 * A conversation's items as the chat messages the model reads before the new input. Over
 * `maxBytes` (`RXGATE_MAX_CONVERSATION_BYTES`) it is a 400 naming `conversation`, unless `truncate`
 * (`truncation: "auto"`) leaves the oldest items out until the rest fit.
 */
export function conversationHistory(
  id: string,
  items: readonly ConversationItem[],
  { maxBytes, truncate }: { readonly maxBytes: number; readonly truncate: boolean },
): ChatMessage[] {
  const bytes = items.reduce((sum, item) => sum + itemBytes(item), 0);
  if (bytes > maxBytes && !truncate) throw conversationTooLarge(id, bytes, maxBytes);
  const kept = bytes > maxBytes ? newestWithin(items, maxBytes) : items;
  const sourced = kept.flatMap((raw, source): SourcedItem[] => {
    const item = parseStoredItem(raw);
    return item ? [{ item: asPlainText(item), source }] : [];
  });
  return toChatMessages(sourced).messages;
}
