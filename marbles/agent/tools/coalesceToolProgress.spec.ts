import { describe, it } from 'vitest';
import { coalesceToolProgress } from '../../../src/agent/tools/coalesceToolProgress.js';
import { marbles } from '../../support/marbles.js';

const call = { callId: 'call_1', name: 'flood' };
const progress = (value: number) => ({ type: 'tool_progress' as const, ...call, progress: value, total: 9 });
const VALUES = {
  s: { type: 'tool_start' as const, ...call, arguments: '{}' },
  a: progress(1),
  b: progress(2),
  c: progress(3),
  d: progress(4),
  e: { type: 'tool_end' as const, ...call, result: 'done', durationMs: 12 },
};

describe('coalesceToolProgress', () => {
  it('proves its TSDoc diagram', marbles((m) => {
    const source$ =  m.cold('s-ab-c-d----e|', VALUES);
    const sourceSubs =      '^------------!';
    const expected =        's-a--c--d---e|';

    m.expect(source$.pipe(coalesceToolProgress(3, m.scheduler))).toBeObservable(expected, VALUES);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
  }));

  it('sends a burst of progress as its first value and its latest', marbles((m) => {
    const source$ =  m.cold('s(abcd)------e|', VALUES);
    const expected =        's(a)--d------e|';

    m.expect(source$.pipe(coalesceToolProgress(5, m.scheduler))).toBeObservable(expected, VALUES);
  }));

  it('drops the progress still waiting when the call ends', marbles((m) => {
    const source$ =  m.cold('s-ab-e|', VALUES);
    const expected =        's-a--e|';

    m.expect(source$.pipe(coalesceToolProgress(10, m.scheduler))).toBeObservable(expected, VALUES);
  }));
});
