import { readUpstreamChunk } from './readUpstreamChunk.js';
import type { UpstreamChunk } from './upstreamChunk.js';

/** A character that ends or escapes a JSON string, or that JSON does not allow in one unescaped. */
// eslint-disable-next-line no-control-regex -- JSON allows no control character unescaped in a string
const NOT_VERBATIM = /["\\\u0000-\u001f]/;

/** Learns allowed before any frame was read from a template; past them, one more for every three frames read. */
const FREE_LEARNS = 3;
const FRAMES_PER_LEARN = 3;

/** The longest frame learnt: a template is held for the stream's life. */
const MAX_TEMPLATE_LENGTH = 4096;

/** Two texts put in place of the learnt one: only the content token can read as each of them. */
const PROBES = ['rxgate-template-probe-1', 'rxgate-template-probe-2'] as const;

/** Below this length V8 copies a slice; from it on, a slice keeps the whole string it was cut from (here, a network read). */
const SLICE_MIN_LENGTH = 13;

/** A copy that does not hold on to the string it was sliced from. */
const detached = (text: string) => JSON.parse(JSON.stringify(text)) as string;

/** The chunk `readUpstreamChunk` reads from a frame that carries only `text`. */
const textChunk = (text: string): UpstreamChunk => ({
  choices: [{ delta: { content: text, reasoning_content: undefined, reasoning: undefined }, finish_reason: undefined }],
  usage: undefined,
});

/** The text of `chunk` when it is one choice whose delta carries text and nothing else rxgate reads. */
function textOf({ choices, usage }: UpstreamChunk): string | undefined {
  const choice = choices?.length === 1 ? choices[0] : undefined;
  if (usage !== undefined || choice?.delta === undefined || choice.finish_reason !== undefined) return undefined;
  const { content, reasoning_content, reasoning, tool_calls } = choice.delta;
  const onlyText = typeof content === 'string' && reasoning_content === undefined && reasoning === undefined && tool_calls === undefined;
  return onlyText ? content : undefined;
}

/** Whether `frame` reads as `text` and nothing else. */
function readsAs(frame: string, text: string): boolean {
  let json: unknown;
  try {
    json = JSON.parse(frame);
  } catch {
    return false;
  }
  const read = readUpstreamChunk(json);
  return 'chunk' in read && textOf(read.chunk) === text;
}

/**
 * Reads the text of an upstream frame without parsing it when the frame is, byte for byte, the
 * last text frame learnt but for its content string: vLLM, llama.cpp and Ollama repeat the id,
 * `created`, model and choice of every delta, so parsing each frame's JSON again (the largest cost
 * per delta) only finds a new content. A frame matches when it starts and ends as the learnt one
 * and what lies between needs no unescaping: then its JSON is the learnt one's with that string
 * token changed, and reads as the learnt chunk with that text. Anything else (escapes, another
 * shape, a finish, an upstream that varies more per frame, such as OpenAI's `obfuscation`) is
 * parsed as before.
 */
export class TextFrameTemplate {
  /** The learnt frame up to and with the content's opening quote, and from its closing quote. Empty: nothing learnt. */
  private prefix = '';
  private suffix = '';
  /** Frames read from a template, and templates learnt, over the stream: learning (two more parses) stops when it does not pay. */
  private matches = 0;
  private learns = 0;

  /** The frame's chunk when it matches the template, else `undefined` (parse it, then `learn`). */
  read(data: string): UpstreamChunk | undefined {
    const { prefix, suffix } = this;
    if (prefix === '' || data.length < prefix.length + suffix.length || !data.startsWith(prefix) || !data.endsWith(suffix)) {
      return undefined;
    }
    const text = data.slice(prefix.length, data.length - suffix.length);
    if (NOT_VERBATIM.test(text)) return undefined;
    this.matches++;
    return textChunk(text.length < SLICE_MIN_LENGTH ? text : detached(text));
  }

  /**
   * Learns `data` as the template when its `chunk` (as `readUpstreamChunk` read it) carries only
   * text, which appears in it exactly once, verbatim, and the frame reads as each probe text when
   * that text is put in its place: then that place is the content's string token.
   */
  learn(data: string, chunk: UpstreamChunk): void {
    if (data.length > MAX_TEMPLATE_LENGTH || this.learns >= FREE_LEARNS + this.matches / FRAMES_PER_LEARN) return;
    const text = textOf(chunk);
    if (text === undefined || NOT_VERBATIM.test(text)) return;
    const token = `"${text}"`;
    const at = data.indexOf(token);
    if (at < 0 || data.indexOf(token, at + 1) >= 0) return;
    this.learns++;
    const prefix = data.slice(0, at + 1);
    const suffix = data.slice(at + token.length - 1);
    if (!PROBES.every((probe) => readsAs(prefix + probe + suffix, probe))) return;
    this.prefix = detached(prefix);
    this.suffix = detached(suffix);
  }
}
