import { describe, it } from 'vitest';
import { replayChatFrames } from '../../src/chat/replayChatFrames.js';
import type { LoggedEvent } from '../../src/store/EventLog.js';
import { marbles } from '../support/marbles.js';

const frame = (seq: number, data: string): LoggedEvent => ({ seq, type: 'frame', data });
const events = {
  f: frame(0, 'data: f\n\n'),
  g: frame(1, 'data: g\n\n'),
  e: { seq: 2, type: 'end', data: '' },
  r: { seq: 1, type: 'released', data: '' },
};
const UNFINISHED = 'data: {"error":{}}\n\n';
const u = { seq: -1, type: 'frame', data: UNFINISHED };

describe('replayChatFrames', () => {
  it('replays the frames of a whole answer as they were logged, and nothing for its end', marbles((m) => {
    const source$ =  m.cold('-f-g-e|', events);
    const expected =        '-f-g--|';

    m.expect(source$.pipe(replayChatFrames(UNFINISHED))).toBeObservable(expected, events);
  }));

  it('ends a released answer with the unfinished frame', marbles((m) => {
    const source$ =  m.cold('-f-r|', events);
    const expected =        '-f--(u|)';

    m.expect(source$.pipe(replayChatFrames(UNFINISHED))).toBeObservable(expected, { ...events, u });
  }));

  it('ends a log that stopped without any end with the unfinished frame', marbles((m) => {
    const source$ =  m.cold('-f-|', events);
    const sourceSubs =      '^--!';
    const expected =        '-f-(u|)';

    m.expect(source$.pipe(replayChatFrames(UNFINISHED))).toBeObservable(expected, { ...events, u });
    m.expect(source$).toHaveSubscriptions(sourceSubs);
  }));
});
