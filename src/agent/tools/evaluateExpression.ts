import { ToolInputError } from './ToolInputError.js';

interface MathFunction {
  readonly arity: readonly [min: number, max: number];
  readonly apply: (...args: number[]) => number;
}

// Maps, not object literals: a name like "constructor" must not reach Object.prototype.
const FUNCTIONS: ReadonlyMap<string, MathFunction> = new Map([
  ['sqrt', { arity: [1, 1], apply: Math.sqrt }],
  ['abs', { arity: [1, 1], apply: Math.abs }],
  ['round', { arity: [1, 1], apply: Math.round }],
  ['floor', { arity: [1, 1], apply: Math.floor }],
  ['ceil', { arity: [1, 1], apply: Math.ceil }],
  ['min', { arity: [1, Infinity], apply: Math.min }],
  ['max', { arity: [1, Infinity], apply: Math.max }],
]);

const CONSTANTS: ReadonlyMap<string, number> = new Map([
  ['pi', Math.PI],
  ['e', Math.E],
]);

/** The longest expression the calculator takes. */
export const MAX_EXPRESSION_LENGTH = 1000;
// Deep enough for any real expression, shallow enough that "((((...": cannot overflow the stack.
const MAX_DEPTH = 64;

type Token =
  | { readonly kind: 'number'; readonly value: number; readonly at: number }
  | { readonly kind: 'name'; readonly value: string; readonly at: number }
  | { readonly kind: 'op'; readonly value: string; readonly at: number }
  | { readonly kind: 'end'; readonly at: number };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /\s*(?:(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|([A-Za-z_]\w*)|([-+*/%^(),×÷]))/y;
  let at = 0;
  while (at < source.length) {
    if (/^\s*$/.test(source.slice(at))) break;
    pattern.lastIndex = at;
    const match = pattern.exec(source);
    if (!match) {
      const rest = source.slice(at);
      const offset = rest.length - rest.trimStart().length;
      throw new ToolInputError(`unexpected character "${rest.trimStart()[0]}" at position ${at + offset + 1}`);
    }
    const [whole, number, name, op] = match;
    const start = at + whole.length - (number ?? name ?? op ?? '').length;
    if (number !== undefined) tokens.push({ kind: 'number', value: Number(number), at: start });
    else if (name !== undefined) tokens.push({ kind: 'name', value: name.toLowerCase(), at: start });
    else tokens.push({ kind: 'op', value: op === '×' ? '*' : op === '÷' ? '/' : op!, at: start });
    at += whole.length;
  }
  tokens.push({ kind: 'end', at: source.length });
  return tokens;
}

/**
 * Evaluates an arithmetic expression with a recursive-descent parser, never `eval`: numbers,
 * `+ - * / % ^` (`^` binds tightest and groups to the right, so `-2^2` is -4), parentheses,
 * unary minus, the constants `pi` and `e`, and `sqrt abs round floor ceil min max`.
 * Throws a `ToolInputError` saying what is wrong and where.
 *
 * @example
 * evaluateExpression('2 * (3 + 4) ^ 2'); // 98
 */
export function evaluateExpression(source: string): number {
  if (source.length > MAX_EXPRESSION_LENGTH) throw new ToolInputError(`the expression is longer than ${MAX_EXPRESSION_LENGTH} characters`);
  const tokens = tokenize(source);
  let position = 0;
  let depth = 0;

  const peek = (): Token => tokens[position]!;
  const next = (): Token => tokens[position++]!;
  const nextOp = (): string => (next() as Extract<Token, { kind: 'op' }>).value;
  const isOp = (value: string): boolean => {
    const token = peek();
    return token.kind === 'op' && token.value === value;
  };
  const describe = (token: Token): string =>
    token.kind === 'end' ? 'the end of the expression' : `"${token.value}" at position ${token.at + 1}`;
  const expect = (value: string): void => {
    const token = next();
    if (token.kind !== 'op' || token.value !== value) throw new ToolInputError(`expected "${value}" but found ${describe(token)}`);
  };
  const nested = <T>(parse: () => T): T => {
    if (++depth > MAX_DEPTH) throw new ToolInputError(`the expression nests deeper than ${MAX_DEPTH} levels`);
    try {
      return parse();
    } finally {
      depth--;
    }
  };

  function expression(): number {
    let value = term();
    while (isOp('+') || isOp('-')) {
      const op = nextOp();
      const right = term();
      value = op === '+' ? value + right : value - right;
    }
    return value;
  }

  function term(): number {
    let value = unary();
    while (isOp('*') || isOp('/') || isOp('%')) {
      const op = nextOp();
      const right = unary();
      if ((op === '/' || op === '%') && right === 0) throw new ToolInputError('division by zero');
      value = op === '*' ? value * right : op === '/' ? value / right : value % right;
    }
    return value;
  }

  function unary(): number {
    if (isOp('-')) {
      next();
      return nested(() => -unary());
    }
    if (isOp('+')) {
      next();
      return nested(unary);
    }
    return power();
  }

  function power(): number {
    const base = primary();
    if (!isOp('^')) return base;
    next();
    return base ** nested(unary);
  }

  function primary(): number {
    const token = next();
    if (token.kind === 'number') return token.value;
    if (token.kind === 'op' && token.value === '(') {
      const value = nested(expression);
      expect(')');
      return value;
    }
    if (token.kind === 'name') {
      const fn = FUNCTIONS.get(token.value);
      if (fn) return call(token.value, fn);
      const constant = CONSTANTS.get(token.value);
      if (constant !== undefined) return constant;
      const known = [...FUNCTIONS.keys(), ...CONSTANTS.keys()].join(', ');
      throw new ToolInputError(`unknown name "${token.value}" at position ${token.at + 1} (known: ${known})`);
    }
    throw new ToolInputError(`expected a number but found ${describe(token)}`);
  }

  function call(name: string, fn: MathFunction): number {
    expect('(');
    const args: number[] = [];
    if (!isOp(')')) {
      args.push(nested(expression));
      while (isOp(',')) {
        next();
        args.push(nested(expression));
      }
    }
    expect(')');
    const [min, max] = fn.arity;
    if (args.length < min || args.length > max) {
      const wanted = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
      throw new ToolInputError(`${name} takes ${wanted} argument${wanted.endsWith('1') ? '' : 's'}, got ${args.length}`);
    }
    if (name === 'sqrt' && args[0]! < 0) throw new ToolInputError('sqrt of a negative number');
    return fn.apply(...args);
  }

  if (peek().kind === 'end') throw new ToolInputError('the expression is empty');
  const value = expression();
  if (peek().kind !== 'end') throw new ToolInputError(`unexpected ${describe(peek())}`);
  if (!Number.isFinite(value)) throw new ToolInputError('the result is not a finite number');
  return value;
}
