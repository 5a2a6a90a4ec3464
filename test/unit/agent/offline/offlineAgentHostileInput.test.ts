import { monitorEventLoopDelay } from 'node:perf_hooks';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Cancellation } from '../../../../src/agent/cancellation.js';
import { findArithmetic } from '../../../../src/agent/offline/findArithmetic.js';
import { createOfflineAgent } from '../../../../src/agent/offline/createOfflineAgent.js';
import { selectTools } from '../../../../src/agent/tools/createToolRegistry.js';
import { evaluateExpression } from '../../../../src/agent/tools/evaluateExpression.js';
import { ToolInputError } from '../../../../src/agent/tools/ToolInputError.js';
import { collectRun } from '../../../support/collectRun.js';

// A request body may be 10 MiB (RXGATE_MAX_BODY_BYTES); 2 MiB of each shape is enough to tell
// linear from quadratic: the quadratic scan blocked the loop for 4 to 16 s on 64 KiB, so for hours
// on 2 MiB, where the linear one takes 50 to 300 ms, and about a second on a two-core machine at a
// load of 12 (the delay counts time the process waits for a core).
const SIZE = 2 * 1024 * 1024;
const MAX_BLOCK_MS = 5000;

const fill = (unit: string): string => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);
const NEAR_LIMIT = '1+'.repeat(499) + '1) x ';

const SHAPES: readonly (readonly [string, string])[] = [
  ['dashes', fill('-')],
  ['open parentheses', fill('(')],
  ['dots', fill('.')],
  ['digits and operators', fill('1+-(2*.3^')],
  ['digits and spaces', fill('12 ')],
  ['many short sums', fill('1+1 a ')],
  ['sums just under the calculator limit that do not evaluate', fill(NEAR_LIMIT)],
  ['function names', fill('sqrt(')],
  ['a real question at the end', fill('-') + ' what is 6 * (3 + 4)?'],
];

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The longest the event loop waited while `work` ran, in ms. */
async function longestBlock(work: () => Promise<unknown>): Promise<number> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  // The histogram measures from its first sample: one before the work, one after it.
  await tick(30);
  try {
    await work();
    await tick(30);
  } finally {
    delay.disable();
  }
  return delay.max / 1e6;
}

describe('the offline agent on a hostile question', () => {
  const agent = createOfflineAgent({ tools: selectTools(['current_time', 'calculator']), delayMs: 0 });

  it.each(SHAPES)('keeps the event loop responsive: %s', async (_name, content) => {
    const request = { model: 'rxgate-agent', messages: [{ role: 'user' as const, content }] };
    let settled: Awaited<ReturnType<typeof collectRun>> | undefined;
    const blocked = await longestBlock(async () => {
      settled = await collectRun(agent.run(request, new Cancellation()));
    });

    expect(settled?.error).toBeUndefined();
    expect(settled?.events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    expect(blocked).toBeLessThan(MAX_BLOCK_MS);
  });

  it('still finds the arithmetic after megabytes of noise', () => {
    expect(findArithmetic(fill('-') + ' what is 6 * (3 + 4)?')).toBe('6 * (3 + 4)');
    expect(findArithmetic(fill('((((') + ' and 2+2')).toBe('2+2');
  });
});

/** The quadratic regex scan that findArithmetic replaced: the oracle for short inputs. */
function regexScan(text: string): string | undefined {
  const fn = String.raw`\b(?:sqrt|abs|round|floor|ceil|min|max)\b`;
  const candidate = new RegExp(String.raw`(?:${fn}|[-(\d.])(?:${fn}|[\d\s.,+\-*/^%()×÷])*[\d)]`, 'gi');
  const operation = new RegExp(String.raw`[\d)]\s*[-+*/^%×÷]\s*[-(\d.]|${fn}`, 'i');
  const candidates = (text.match(candidate) ?? [])
    .map((match) => match.trim())
    .filter((match) => operation.test(match) && !/^\d{4}-\d{2}-\d{2}$/.test(match))
    .sort((a, b) => b.length - a.length);
  return candidates.find((match) => {
    try {
      evaluateExpression(match);
      return true;
    } catch {
      return false;
    }
  });
}

describe('findArithmetic', () => {
  it('finds what the regex scan it replaced found', () => {
    const pieces = [
      '1',
      '23',
      '4.5',
      ' ',
      '-',
      '+',
      '*',
      '/',
      '^',
      '%',
      '(',
      ')',
      '.',
      ',',
      '×',
      '÷',
      'x',
      'sqrt',
      'Max',
      'min(',
      'abs',
      'is',
      '?',
      '\u2003',
      '2024-01-02',
    ];
    const question = fc.array(fc.constantFrom(...pieces), { maxLength: 30 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(question, (text) => {
        expect(findArithmetic(text)).toBe(regexScan(text));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('evaluateExpression on hostile input', () => {
  it.each([
    ['dashes', '-'.repeat(999) + '1', 'the expression nests deeper than 64 levels'],
    ['open parentheses', '('.repeat(999) + '1', 'the expression nests deeper than 64 levels'],
    ['powers', '2^'.repeat(499) + '2', 'the expression nests deeper than 64 levels'],
    ['function calls', 'sqrt('.repeat(199) + '1', 'the expression nests deeper than 64 levels'],
    ['plus signs', '+'.repeat(999) + '1', 'the expression nests deeper than 64 levels'],
    ['a body-sized expression', '1+'.repeat(5_000_000) + '1', 'the expression is longer than 1000 characters'],
  ])('rejects %s with a tool error, not a stack overflow', (_name, expression, message) => {
    expect(() => evaluateExpression(expression)).toThrow(new ToolInputError(message));
  });

  it.each([
    ['a long sum', '1+'.repeat(499) + '1', 500],
    ['many arguments', `max(${'1,'.repeat(497)}2)`, 2],
    ['leading spaces', ' '.repeat(998) + '7', 7],
  ])('evaluates %s of the longest allowed length', (_name, expression, value) => {
    expect(evaluateExpression(expression)).toBe(value);
  });
});
