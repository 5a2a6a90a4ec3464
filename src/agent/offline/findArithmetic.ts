import { evaluateExpression, MAX_EXPRESSION_LENGTH } from '../tools/evaluateExpression.js';
import { isWhitespace } from './isWhitespace.js';

const FUNCTION_NAMES = ['sqrt', 'abs', 'round', 'floor', 'ceil', 'min', 'max'];
// Lower-case initial -> the names that start with it, so most letters cost one lookup.
const FUNCTIONS_BY_INITIAL: readonly (readonly string[] | undefined)[] = Array.from({ length: 128 }, (_, code) => {
  const names = FUNCTION_NAMES.filter((name) => name.charCodeAt(0) === code);
  return names.length > 0 ? names : undefined;
});
const OPERATION = /[\d)]\s*[-+*/^%×÷]\s*[-(\d.]|\b(?:sqrt|abs|round|floor|ceil|min|max)\b/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
// Each attempt costs up to MAX_EXPRESSION_LENGTH characters; past this many failures there is no arithmetic worth finding.
const MAX_ATTEMPTS = 32;

const isDigit = (code: number): boolean => code >= 0x30 && code <= 0x39;
// `\b`'s idea of a word character.
const isWordChar = (code: number): boolean => isDigit(code) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a) || code === 0x5f;
const isStart = (code: number): boolean => isDigit(code) || code === 0x2d || code === 0x28 || code === 0x2e; // - ( .
const isEnd = (code: number): boolean => isDigit(code) || code === 0x29; // )
// Digits, whitespace, . , + - * / ^ % ( ) × ÷: one table lookup per character of the scan.
const EXPRESSION_CHARS = new Uint8Array(256);
for (let code = 0; code < 256; code++) {
  if (isDigit(code) || '.,+-*/^%()×÷'.includes(String.fromCharCode(code)) || isWhitespace(code)) EXPRESSION_CHARS[code] = 1;
}
const isExpressionChar = (code: number): boolean => (code < 256 ? EXPRESSION_CHARS[code] === 1 : isWhitespace(code));

/** The length of the calculator function name (any case) that starts at `at` on word boundaries, else 0. */
function functionNameAt(text: string, at: number): number {
  const names = FUNCTIONS_BY_INITIAL[text.charCodeAt(at) | 0x20];
  if (names === undefined || (at > 0 && isWordChar(text.charCodeAt(at - 1)))) return 0;
  for (const name of names) {
    let matched = 1;
    while (matched < name.length && (text.charCodeAt(at + matched) | 0x20) === name.charCodeAt(matched)) matched++;
    if (matched === name.length && !isWordChar(text.charCodeAt(at + matched))) return matched;
  }
  return 0;
}

/**
 * Calls `found` with each span that may hold arithmetic, left to right, in one pass: a span starts
 * at a digit, `-`, `(`, `.` or a function name, runs over expression characters and function
 * names, and ends at the run's last digit or `)`. No later start inside the same run can end
 * anywhere else, so the scan resumes after the run: each character is looked at a few times at most.
 */
function forEachCandidate(text: string, found: (start: number, end: number) => void): void {
  let at = 0;
  while (at < text.length) {
    if (!isStart(text.charCodeAt(at)) && functionNameAt(text, at) === 0) {
      at++;
      continue;
    }
    let end = -1;
    let next = at;
    while (next < text.length) {
      const code = text.charCodeAt(next);
      if (isExpressionChar(code)) {
        if (isEnd(code)) end = next + 1;
        next++;
        continue;
      }
      const name = functionNameAt(text, next);
      if (name === 0) break;
      next += name;
    }
    if (end > 0) found(at, end);
    at = next;
  }
}

/**
 * The longest arithmetic expression in `text` that the calculator can evaluate, if any: "what is
 * 12 * (3 + 4)?" gives "12 * (3 + 4)". A bare number or a date like 2024-01-02 does not count
 * unless it evaluates, which a date does, so dates with dashes are skipped. Linear in `text`: one
 * scan, then at most `MAX_ATTEMPTS` evaluations of at most `MAX_EXPRESSION_LENGTH` characters.
 */
export function findArithmetic(text: string): string | undefined {
  // The longest first, the earliest of equal length first; only as many as will be tried.
  const best: string[] = [];
  forEachCandidate(text, (start, end) => {
    const length = end - start;
    if (length > MAX_EXPRESSION_LENGTH || (best.length === MAX_ATTEMPTS && length <= best.at(-1)!.length)) return;
    const candidate = text.slice(start, end);
    if (!OPERATION.test(candidate) || DATE.test(candidate)) return;
    let at = best.length;
    while (at > 0 && best[at - 1]!.length < length) at--;
    best.splice(at, 0, candidate);
    if (best.length > MAX_ATTEMPTS) best.pop();
  });
  return best.find((candidate) => {
    try {
      evaluateExpression(candidate);
      return true;
    } catch {
      return false;
    }
  });
}
