import { jsonFrame } from '../sse/jsonFrame.js';
import type { ChatCompletionChunk, ChatCompletionMeta } from './chatCompletionChunk.js';

/** A plain object (no `toJSON` from a prototype) with exactly these own keys, in this order. */
const plainWithKeys = (value: object, keys: readonly string[]): boolean => {
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  const own = Object.keys(value);
  return own.length === keys.length && own.every((key, at) => key === keys[at]);
};

const CHOICE_KEYS = ['index', 'delta', 'logprobs', 'finish_reason'];

/**
 * Serialises one completion's chunks as `jsonFrame` does, byte for byte, with the part every chunk
 * shares (`id`, `object`, `created`, `model`) written once: a chunk with exactly the encoder's
 * fields, in its order, and this completion's values, has only its delta and finish reason
 * serialised (JSON.stringify of the whole chunk was the largest cost of a delta); any other
 * chunk (one a user operator made, the usage chunk, tool progress) goes through `jsonFrame`.
 *
 * @example
 * const frame = chatChunkFrame(meta);
 * frame(chunk) === jsonFrame(chunk); // always
 */
export function chatChunkFrame(meta: ChatCompletionMeta): (chunk: ChatCompletionChunk) => string {
  const keys = ['id', 'object', 'created', 'model', 'choices', ...(meta.includeUsage ? ['usage'] : [])];
  const usage = meta.includeUsage ? null : undefined;
  const head = `data: {"id":${JSON.stringify(meta.id)},"object":"chat.completion.chunk","created":${JSON.stringify(meta.created)},"model":${JSON.stringify(meta.model)},"choices":[{"index":0,"delta":`;
  const tail = meta.includeUsage ? `],"usage":null}\n\n` : `]}\n\n`;
  return (chunk) => {
    const choice = chunk.choices[0];
    const shared =
      chunk.id === meta.id &&
      chunk.object === 'chat.completion.chunk' &&
      chunk.created === meta.created &&
      chunk.model === meta.model &&
      chunk.usage === usage &&
      chunk.choices.length === 1 &&
      choice!.index === 0 &&
      choice!.logprobs === null &&
      typeof choice!.delta === 'object' &&
      choice!.delta !== null &&
      (choice!.finish_reason === null || typeof choice!.finish_reason === 'string') &&
      plainWithKeys(chunk, keys) &&
      plainWithKeys(choice!, CHOICE_KEYS);
    if (!shared) return jsonFrame(chunk);
    return `${head}${JSON.stringify(choice!.delta)},"logprobs":null,"finish_reason":${JSON.stringify(choice!.finish_reason)}}${tail}`;
  };
}
