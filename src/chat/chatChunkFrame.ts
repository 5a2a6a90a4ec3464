import { jsonFrame } from '../sse/jsonFrame.js';
import { jsonString, quotesAsItIs } from '../wire/jsonString.js';
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

/** The text of a delta that carries text and nothing else. */
function textOf(delta: object): string | undefined {
  const { content } = delta as { content?: unknown };
  return typeof content === 'string' && plainWithKeys(delta, TEXT_DELTA_KEYS) ? content : undefined;
}

/** The delta's JSON; a text (`text`, when it carries only that) or reasoning delta's with only its text serialised. */
function deltaJson(delta: object, text: string | undefined): string {
  if (text !== undefined) return `{"content":${jsonString(text)}}`;
  const { reasoning_content } = delta as { reasoning_content?: unknown };
  if (typeof reasoning_content === 'string' && plainWithKeys(delta, REASONING_DELTA_KEYS))
    return `{"reasoning_content":${jsonString(reasoning_content)}}`;
  return JSON.stringify(delta);
}

/**
 * One string of `parts`, flat: joined, not a tree of concatenations. Every frame is made from
 * these, and a write turn's frames are copied out of their trees into one string before it is
 * encoded: the fewer pieces a frame has, the less that costs.
 */
const flat = (...parts: string[]): string => parts.join('');

/**
 * Serialises one completion's chunks as `jsonFrame` does, byte for byte, with the part every chunk
 * shares (`id`, `object`, `created`, `model`) written once: a chunk with exactly the encoder's
 * fields, in its order, and this completion's values, has only its delta and finish reason
 * serialised (JSON.stringify of the whole chunk was the largest cost of a delta); any other
 * chunk (one a user operator made, the usage chunk, tool progress) goes through `jsonFrame`. A
 * text delta whose text needs no escaping (nearly all) is three pieces: the frame up to the text,
 * the text, and the frame after it.
 *
 * @example
 * const frame = chatChunkFrame(meta);
 * frame(chunk) === jsonFrame(chunk); // always
 */
export function chatChunkFrame(meta: ChatCompletionMeta): (chunk: ChatCompletionChunk) => string {
  const keys = ['id', 'object', 'created', 'model', 'choices', ...(meta.includeUsage ? ['usage'] : [])];
  const usage = meta.includeUsage ? null : undefined;
  const head = flat(
    'data: {"id":',
    JSON.stringify(meta.id),
    ',"object":"chat.completion.chunk","created":',
    JSON.stringify(meta.created),
    ',"model":',
    JSON.stringify(meta.model),
    ',"choices":[{"index":0,"delta":',
  );
  const tail = meta.includeUsage ? '],"usage":null}\n\n' : ']}\n\n';
  const textHead = flat(head, '{"content":"');
  const textTail = flat('"},"logprobs":null,"finish_reason":null}', tail);
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
    const { delta, finish_reason: finishReason } = choice!;
    const text = textOf(delta);
    if (text !== undefined && finishReason === null && quotesAsItIs(text)) return textHead + text + textTail;
    const finish = finishReason === null ? 'null' : JSON.stringify(finishReason);
    return `${head}${deltaJson(delta, text)},"logprobs":null,"finish_reason":${finish}}${tail}`;
  };
}
