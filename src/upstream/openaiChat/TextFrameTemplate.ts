import { holdsAt } from './holdsAt.js';
import { readUpstreamChunk } from './readUpstreamChunk.js';
import type { UpstreamChunk } from '../upstreamChunk.js';

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

/** Whether `text` is a JSON string's content as it is, with no escape. */
const isVerbatim = (text: string): boolean => !NOT_VERBATIM.test(text);

/**
 * OpenAI's padding, the last field of every frame: `,"obfuscation":"kJ"}`. Group 1 is the part of
 * the frame up to the value's opening quote, group 2 the value.
 */
const PADDING = /^(.*[,{]"obfuscation":")([^"]*)"}$/s;

/** What ends a frame after its padding's value. */
const PADDING_END = '"}';

/** Below this length V8 copies a slice; from it on, a slice keeps the whole string it was cut from (here, a network read). */
const SLICE_MIN_LENGTH = 13;

/** A copy that does not hold on to the string it was sliced from. */
const detached = (text: string) => JSON.parse(JSON.stringify(text)) as string;

/** The chunk `readUpstreamChunk` reads from a frame that carries only `text`. */
const textChunk = (text: string): UpstreamChunk => ({
  choices: [{ delta: { content: text, refusal: undefined, reasoning_content: undefined, reasoning: undefined }, finish_reason: undefined }],
  usage: undefined,
});

/** The text of `chunk` when it is one choice whose delta carries text and nothing else rxgate reads. */
function textOf({ choices, usage }: UpstreamChunk): string | undefined {
  const choice = choices?.length === 1 ? choices[0] : undefined;
  if (usage !== undefined || choice?.delta === undefined || choice.finish_reason !== undefined) return undefined;
  const { content, refusal, reasoning_content, reasoning, tool_calls } = choice.delta;
  const onlyText =
    typeof content === 'string' &&
    refusal === undefined &&
    reasoning_content === undefined &&
    reasoning === undefined &&
    tool_calls === undefined;
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
 * per delta) only finds a new content. OpenAI also ends each frame with an `obfuscation` string of
 * random length, which rxgate does not read: when the learnt frame ends with that field, its value
 * may differ too. A frame matches when it starts as the learnt one, its content string needs no
 * unescaping and is followed by the learnt rest (up to the padding's value, which needs none
 * either): then its JSON is the learnt one with those string tokens changed, and reads as the
 * learnt chunk with that text. Anything else (escapes, another shape, a finish, an upstream that
 * varies more per frame) is parsed as before.
 */
export class TextFrameTemplate {
  /**
   * The learnt frame up to and with the content's opening quote, and from its closing quote: to the
   * frame's end, or, when the frame ends with a padding, to its value's opening quote. Empty: nothing learnt.
   */
  private prefix = '';
  private suffix = '';
  /** Whether the learnt frame ends with a padding, whose value is then not compared. */
  private padded = false;
  /** Frames read from a template, and templates learnt, over the stream: learning (two more parses) stops when it does not pay. */
  private matches = 0;
  private learns = 0;

  /** The frame's chunk when it matches the template, else `undefined` (parse it, then `learn`). */
  read(data: string): UpstreamChunk | undefined {
    const { prefix, suffix } = this;
    if (prefix === '' || !holdsAt(data, prefix, 0)) return undefined;
    const end = this.padded ? this.paddedTextEnd(data) : data.length - suffix.length;
    if (end < prefix.length || (!this.padded && !holdsAt(data, suffix, end))) return undefined;
    const text = data.slice(prefix.length, end);
    if (!isVerbatim(text)) return undefined;
    this.matches++;
    return textChunk(text.length < SLICE_MIN_LENGTH ? text : detached(text));
  }

  /**
   * Where the text of `data` ends, a frame of a padded template: at the first quote after the
   * prefix (an escaped quote before it would leave a backslash in the text), when the learnt rest
   * follows it and the padding's value needs no unescaping; else -1.
   */
  private paddedTextEnd(data: string): number {
    const end = data.indexOf('"', this.prefix.length);
    const paddingStart = end + this.suffix.length;
    const paddingEnd = data.length - PADDING_END.length;
    if (end < 0 || paddingStart > paddingEnd || !holdsAt(data, this.suffix, end) || !holdsAt(data, PADDING_END, paddingEnd)) return -1;
    return isVerbatim(data.slice(paddingStart, paddingEnd)) ? end : -1;
  }

  /**
   * Learns `data` as the template when its `chunk` (as `readUpstreamChunk` read it) carries only
   * text, which appears in it exactly once, verbatim, and the frame reads as each probe text when
   * that text is put in its place (and another padding in the padding's): then that place is the
   * content's string token.
   */
  learn(data: string, chunk: UpstreamChunk): void {
    if (data.length > MAX_TEMPLATE_LENGTH || this.learns >= FREE_LEARNS + this.matches / FRAMES_PER_LEARN) return;
    const text = textOf(chunk);
    if (text === undefined || !isVerbatim(text)) return;
    const token = `"${text}"`;
    const at = data.indexOf(token);
    if (at < 0 || data.indexOf(token, at + 1) >= 0) return;
    this.learns++;
    const prefix = data.slice(0, at + 1);
    const rest = data.slice(at + token.length - 1);
    const found = PADDING.exec(rest);
    const padding = found && isVerbatim(found[2]!) ? found : null;
    const suffix = padding ? padding[1]! : rest;
    const end = padding ? PADDING_END : '';
    if (!PROBES.every((probe) => readsAs(prefix + probe + suffix + (padding ? probe : '') + end, probe))) return;
    this.prefix = detached(prefix);
    this.suffix = detached(suffix);
    this.padded = padding !== null;
  }
}
