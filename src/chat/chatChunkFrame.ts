import { jsonFrame } from '../sse/jsonFrame.js';
import { jsonString } from '../sse/jsonString.js';
import type { ChatCompletionChunk, ChatCompletionMeta } from './chatCompletionChunk.js';

/**
 * A plain object (no `toJSON` from a prototype) with exactly these own keys, in this order. Read
 * with `for…in`, which makes no array of them as `Object.keys` does (with `Object.prototype` as the
 * prototype, it lists only own keys, unless something made a key of it enumerable: then the chunk
 * goes through `jsonFrame`, which is right anyway).
 */
function plainWithKeys(value: object, keys: readonly string[]): boolean {
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  let at = 0;
  for (const key in value) if (key !== keys[at++]) return false;
  return at === keys.length;
}

const CHOICE_KEYS = ['index', 'delta', 'logprobs', 'finish_reason'];
const TEXT_DELTA_KEYS = ['content'];
const REASONING_DELTA_KEYS = ['reasoning_content'];

/** The delta's JSON; a text or reasoning delta's (the most of them) with only its text serialised. */
function deltaJson(delta: object): string {
  const { content, reasoning_content } = delta as { content?: unknown; reasoning_content?: unknown };
  if (typeof content === 'string' && plainWithKeys(delta, TEXT_DELTA_KEYS)) return `{"content":${jsonString(content)}}`;
  if (typeof reasoning_content === 'string' && plainWithKeys(delta, REASONING_DELTA_KEYS))
    return `{"reasoning_content":${jsonString(reasoning_content)}}`;
  return JSON.stringify(delta);
}

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
    const finish = choice!.finish_reason === null ? 'null' : JSON.stringify(choice!.finish_reason);
    return `${head}${deltaJson(choice!.delta)},"logprobs":null,"finish_reason":${finish}}${tail}`;
  };
}
