import type { ChatMessage, ContentPart } from '../agent/agent.js';
import { itemId } from './itemIds.js';

type InputContentPart =
  | { readonly type: 'input_text'; readonly text: string }
  | { readonly type: 'output_text'; readonly text: string; readonly annotations: readonly never[] }
  | { readonly type: 'input_image'; readonly image_url: string; readonly detail: string };

/** An input item as `GET /v1/responses/{id}/input_items` lists it. */
export type ListedInputItem =
  | {
      readonly id: string;
      readonly type: 'message';
      readonly role: 'user' | 'assistant' | 'system' | 'developer';
      readonly status: 'completed';
      readonly content: readonly InputContentPart[];
    }
  | {
      readonly id: string;
      readonly type: 'function_call';
      readonly status: 'completed';
      readonly call_id: string;
      readonly name: string;
      readonly arguments: string;
    }
  | {
      readonly id: string;
      readonly type: 'function_call_output';
      readonly status: 'completed';
      readonly call_id: string;
      readonly output: string;
    };

const toPart = (part: ContentPart): InputContentPart =>
  part.type === 'image_url'
    ? { type: 'input_image', image_url: part.image_url.url, detail: part.image_url.detail ?? 'auto' }
    : { type: 'input_text', text: part.text };

const plainText = (content: string | readonly ContentPart[]): string =>
  typeof content === 'string' ? content : content.map((part) => (part.type === 'text' ? part.text : '')).join('');

/**
 * A stored turn's input (its chat messages, references already resolved) as Responses input
 * items, each with an id that `itemId` made from the response's id and the item's position, so
 * that an `item_reference` to it resolves. An assistant message with tool calls is a message item
 * (when it has text) and one `function_call` item per call; a tool message a `function_call_output`.
 */
export function toInputItems(responseId: string, messages: readonly ChatMessage[]): ListedInputItem[] {
  const items: ListedInputItem[] = [];
  const nextId = (prefix: string) => itemId(prefix, responseId, 'input', items.length);
  for (const message of messages) {
    switch (message.role) {
      case 'assistant': {
        const text = plainText(message.content ?? '');
        if (text !== '' || !message.tool_calls?.length) {
          items.push({
            id: nextId('msg'),
            type: 'message',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text, annotations: [] }],
          });
        }
        for (const call of message.tool_calls ?? []) {
          items.push({
            id: nextId('fc'),
            type: 'function_call',
            status: 'completed',
            call_id: call.id,
            name: call.function.name,
            arguments: call.function.arguments,
          });
        }
        break;
      }
      case 'tool':
        items.push({
          id: nextId('fco'),
          type: 'function_call_output',
          status: 'completed',
          call_id: message.tool_call_id,
          output: plainText(message.content),
        });
        break;
      default: {
        const content =
          typeof message.content === 'string' ? [{ type: 'input_text' as const, text: message.content }] : message.content.map(toPart);
        items.push({ id: nextId('msg'), type: 'message', role: message.role, status: 'completed', content });
      }
    }
  }
  return items;
}
