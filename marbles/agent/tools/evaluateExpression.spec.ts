import { describe, expect, it } from 'vitest';
import { calculatorTool } from '../../../src/agent/tools/calculatorTool.js';
import { evaluateExpression } from '../../../src/agent/tools/evaluateExpression.js';
import { ToolInputError } from '../../../src/agent/tools/ToolInputError.js';

describe('evaluateExpression', () => {
  it.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['10 - 4 - 3', 3],
    ['2 ^ 3 ^ 2', 512],
    ['-2 ^ 2', -4],
    ['(-2) ^ 2', 4],
    ['--3', 3],
    ['-(4 - 6)', 2],
    ['17 % 5', 2],
    ['7 / 2', 3.5],
    ['1.5e3 + .5', 1500.5],
    ['sqrt(16) + abs(-3)', 7],
    ['min(4, 2, 8) * max(1, 5)', 10],
    ['round(2.5) + floor(2.9) + ceil(2.1)', 8],
    ['2 pi', NaN],
    ['6 × 7 ÷ 2', 21],
  ])('%s = %d', (expression, value) => {
    if (Number.isNaN(value)) expect(() => evaluateExpression(expression)).toThrow(ToolInputError);
    else expect(evaluateExpression(expression)).toBe(value);
  });

  it('knows pi and e', () => {
    expect(evaluateExpression('2 * pi')).toBeCloseTo(2 * Math.PI);
    expect(evaluateExpression('e ^ 1')).toBeCloseTo(Math.E);
  });

  it.each([
    ['', 'the expression is empty'],
    ['1 +', 'expected a number but found the end of the expression'],
    ['(1 + 2', 'expected ")" but found the end of the expression'],
    ['1 / 0', 'division by zero'],
    ['5 % 0', 'division by zero'],
    ['sqrt(-1)', 'sqrt of a negative number'],
    ['sqrt(1, 2)', 'sqrt takes 1 argument, got 2'],
    ['max()', 'max takes at least 1 argument, got 0'],
    ['min(1, 2) + round()', 'round takes 1 argument, got 0'],
    ['process.exit(1)', 'unexpected character "." at position 8'],
    ['process(1)', 'unknown name "process" at position 1 (known: sqrt, abs, round, floor, ceil, min, max, pi, e)'],
    ['1 ; 2', 'unexpected character ";" at position 3'],
    ['10 ^ 400', 'the result is not a finite number'],
    ['('.repeat(200) + '1' + ')'.repeat(200), 'the expression nests deeper than 64 levels'],
    ['1'.repeat(1001), 'the expression is longer than 1000 characters'],
  ])('rejects %j: %s', (expression, message) => {
    expect(() => evaluateExpression(expression)).toThrow(new ToolInputError(message));
  });

  it('never evaluates code: constructor tricks are unknown names', () => {
    expect(() => evaluateExpression('constructor')).toThrow(/unknown name "constructor"/);
    expect(() => evaluateExpression('__proto__')).toThrow(/unknown name "__proto__"/);
    expect(() => evaluateExpression('toString(1)')).toThrow(/unknown name "tostring"/);
  });
});

describe('the calculator tool', () => {
  it('formats without float noise', async () => {
    expect(await calculatorTool.run({ expression: '0.1 + 0.2' }, new AbortController().signal)).toBe('0.3');
    expect(await calculatorTool.run({ expression: '2 ^ 0.5' }, new AbortController().signal)).toBe('1.41421356237');
  });
});
