/**
 * A character `JSON.stringify` escapes in a string: a quote, a backslash, a control character, or
 * a surrogate (paired ones are not escaped, but are left to it so that lone ones are).
 */
// eslint-disable-next-line no-control-regex -- JSON allows no control character unescaped in a string
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Whether `JSON.stringify(text)` is `text` between two quotes. */
export const quotesAsItIs = (text: string): boolean => !ESCAPED.test(text);

/**
 * `JSON.stringify(text)`, exactly. A text with nothing to escape (a model's deltas nearly always)
 * is only quoted: on Node 20 `JSON.stringify` of a string takes 46 ns for three characters and
 * 160 for sixty, the test and the quotes a half to a third of that.
 */
export const jsonString = (text: string): string => (quotesAsItIs(text) ? `"${text}"` : JSON.stringify(text));
