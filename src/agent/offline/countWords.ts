import { isWhitespace } from './isWhitespace.js';

/** How many runs of non-whitespace `text` holds, as `text.match(/\S+/g).length` without an array of them. */
export function countWords(text: string): number {
  let words = 0;
  let inWord = false;
  for (let at = 0; at < text.length; at++) {
    const space = isWhitespace(text.charCodeAt(at));
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}
