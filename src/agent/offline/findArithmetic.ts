import { evaluateExpression } from '../tools/evaluateExpression.js';

const FUNCTION = String.raw`\b(?:sqrt|abs|round|floor|ceil|min|max)\b`;
const CANDIDATE = new RegExp(String.raw`(?:${FUNCTION}|[-(\d.])(?:${FUNCTION}|[\d\s.,+\-*/^%()×÷])*[\d)]`, 'gi');
const OPERATION = new RegExp(String.raw`[\d)]\s*[-+*/^%×÷]\s*[-(\d.]|${FUNCTION}`, 'i');

/**
 * The longest arithmetic expression in `text` that the calculator can evaluate, if any: "what is
 * 12 * (3 + 4)?" gives "12 * (3 + 4)". A bare number or a date like 2024-01-02 does not count
 * unless it evaluates, which a date does, so dates with dashes are skipped.
 */
export function findArithmetic(text: string): string | undefined {
  const candidates = (text.match(CANDIDATE) ?? [])
    .map((candidate) => candidate.trim())
    .filter((candidate) => OPERATION.test(candidate) && !/^\d{4}-\d{2}-\d{2}$/.test(candidate))
    .sort((a, b) => b.length - a.length);
  return candidates.find((candidate) => {
    try {
      evaluateExpression(candidate);
      return true;
    } catch {
      return false;
    }
  });
}
