export type Counter = (text: string) => number;

const NO_SPECIAL_TOKENS = { disallowedSpecial: new Set<string>() };
/** Texts of at least this many characters keep their count: a coding agent sends the same system prompt, tools and history every turn. */
const REMEMBERED_CHARS = 512;
/** At most this many characters of remembered texts (32 MiB at most, in two-byte strings). */
const REMEMBERED_TOTAL_CHARS = 16 * 1024 * 1024;

/** What a message's role and separators cost, as OpenAI's chat format counts them. */
export const PER_MESSAGE_TOKENS = 3;
/** An image, whose size rxgate does not decode: about what a 1,000 by 1,000 pixel one costs. */
export const PER_IMAGE_TOKENS = 1_600;

let loading: Promise<Counter> | undefined;
let loaded: Counter | undefined;

/**
 * A token counter with OpenAI's `o200k_base` encoding (gpt-tokenizer), loaded once on first use
 * (its tables take about 160 ms and 60 MB, which a server that never counts does not pay). A text
 * that looks like a special token is counted as text. Long texts' counts are remembered, the
 * oldest forgotten first: counting 70,000 characters takes 20 to 30 ms, and a coding agent resends
 * its whole conversation on every turn.
 *
 * @example
 * const count = await tokenCounter();
 * count('hello world') // 2
 */
export function tokenCounter(): Promise<Counter> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base')
    .then(({ countTokens }) => {
      const remembered = new Map<string, number>();
      let rememberedChars = 0;
      return (text: string) => {
        if (text.length < REMEMBERED_CHARS || text.length > REMEMBERED_TOTAL_CHARS) return countTokens(text, NO_SPECIAL_TOKENS);
        let count = remembered.get(text);
        if (count === undefined) {
          count = countTokens(text, NO_SPECIAL_TOKENS);
          rememberedChars += text.length;
          for (const oldest of remembered.keys()) {
            if (rememberedChars <= REMEMBERED_TOTAL_CHARS) break;
            remembered.delete(oldest);
            rememberedChars -= oldest.length;
          }
        } else remembered.delete(text);
        remembered.set(text, count);
        return count;
      };
    })
    .then((counter) => (loaded = counter));
  return loading;
}

/** The counter `tokenCounter` gives, once it has loaded: a caller that must count at once (a stream's end) need not wait a turn. */
export const loadedTokenCounter = (): Counter | undefined => loaded;
