import { configure } from 'rxjs-marbles';
import { expect } from 'vitest';

export const { marbles } = configure({
  assertDeepEqual: (actual: unknown, expected: unknown) => expect(actual).toStrictEqual(expected),
  frameworkMatcher: true,
});
