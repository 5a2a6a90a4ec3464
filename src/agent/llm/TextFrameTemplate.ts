import { readUpstreamChunk } from './readUpstreamChunk.js';
import type { UpstreamChunk } from './upstreamChunk.js';

/** A character that ends or escapes a JSON string, or that JSON does not allow in one unescaped. */
// eslint-disable-next-line no-control-regex -- JSON allows no control character unescaped in a string
const NOT_VERBATIM = /["\\\u0000-\u001f]/;

/** Templates learnt in a row that matched no frame before the stream's shape changed again: learning is given up. */
const MAX_WASTED_LEARNS = 3;

/** Stands in for the content when a template is checked; no upstream sends it. */
const PROBE = 'rxgate-template-probe';

/** A copy that does not hold on to the (possibly large) string it was sliced from. */
const detached = (text: string) => JSON.parse(JSON.stringify(text)) as string;

/** The chunk `readUpstreamChunk` reads from a frame that carries only `text`. */
const textChunk = (text: string): UpstreamChunk => ({
  choices: [{ delta: { content: text, reasoning_content: undefined, reasoning: undefined }, finish_reason: undefined }],
  usage: undefined,
});

/** Whether `chunk` is one choice whose delta carries text and nothing else rxgate reads. */
function onlyText(chunk: UpstreamChunk): string | undefined {
  const { choices, usage } = chunk;
  if (usage !== undefined || choices?.length !== 1) return undefined;
  const [{ delta, finish_reason }] = choices as [NonNullable<UpstreamChunk['choices']>[number]];
  if (finish_reason !== undefined || delta === undefined) return undefined;
  const { content, reasoning_content, reasoning, tool_calls } = delta;
  if (typeof content !== 'string' || reasoning_content !== undefined || reasoning !== undefined || tool_calls !== undefined) {
    return undefined;
  }
  return content;
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
  private matched = 0;
  private wasted = 0;

  /** The frame's chunk when it matches the template, else `undefined` (parse it, then `learn`). */
  read(data: string): UpstreamChunk | undefined {
    const { prefix, suffix } = this;
    if (prefix === '' || data.length < prefix.length + suffix.length || !data.startsWith(prefix) || !data.endsWith(suffix)) {
      return undefined;
    }
    const text = data.slice(prefix.length, data.length - suffix.length);
    if (NOT_VERBATIM.test(text)) return undefined;
    this.matched++;
    return textChunk(text);
  }

  /**
   * Learns `data` as the template when its `chunk` (as `readUpstreamChunk` read it) carries only
   * text, which appears in it exactly once, verbatim; the learnt template is checked by parsing
   * the frame with another text in its place.
   */
  learn(data: string, chunk: UpstreamChunk): void {
    if (this.wasted >= MAX_WASTED_LEARNS) return;
    const text = onlyText(chunk);
    if (text === undefined || NOT_VERBATIM.test(text)) return;
    const token = `"${text}"`;
    const at = data.indexOf(token);
    if (at < 0 || data.indexOf(token, at + 1) >= 0) return;
    const prefix = data.slice(0, at + 1);
    const suffix = data.slice(at + token.length - 1);
    if (!this.probed(prefix, suffix)) return;
    if (this.prefix !== '' && this.matched === 0) this.wasted++;
    else this.wasted = 0;
    this.prefix = detached(prefix);
    this.suffix = detached(suffix);
    this.matched = 0;
  }

  /** Whether the frame with another text between `prefix` and `suffix` reads as that text and nothing else. */
  private probed(prefix: string, suffix: string): boolean {
    let json: unknown;
    try {
      json = JSON.parse(prefix + PROBE + suffix);
    } catch {
      return false;
    }
    const read = readUpstreamChunk(json);
    return 'chunk' in read && onlyText(read.chunk) === PROBE;
  }
}
