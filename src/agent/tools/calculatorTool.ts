import { z } from 'zod';
import { evaluateExpression } from './evaluateExpression.js';
import { defineTool } from './tool.js';

/** Formats without binary-float noise: 0.1 + 0.2 reads 0.3. */
export function formatNumber(value: number): string {
  return String(Number.parseFloat(value.toPrecision(12)));
}

/** Arithmetic the model should not do in its head. */
export const calculatorTool = defineTool({
  name: 'calculator',
  description:
    'Evaluates an arithmetic expression exactly. Supports numbers, + - * / % ^, parentheses, unary minus, ' +
    'the constants pi and e, and the functions sqrt, abs, round, floor, ceil, min, max.',
  parameters: z.object({
    expression: z.string().min(1).describe('The expression, for example "2 * (3 + 4) ^ 2" or "sqrt(2) / 3"'),
  }),
  run: async ({ expression }) => formatNumber(evaluateExpression(expression)),
});
