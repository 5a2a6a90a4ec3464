import { describe, expect, it } from 'vitest';
import { endChatStream } from '../../src/chat/endChatStream.js';
import { DONE_FRAME } from '../../src/chat/done.js';
import { keepFrames } from '../../src/chat/keepFrames.js';
import { toErrorFrame } from '../../src/chat/toErrorFrame.js';
import { AgentError } from '../../src/errors/AgentError.js';
import { marbles } from '../support/marbles.js';

describe('keepFrames', () => {
  it('hands every frame to the keeper as it passes, and holds [DONE] until the answer is kept', marbles((m) => {
    const source$ =  m.cold('-a-b-|');
    const whole$ =   m.cold(     '---|');
    const wholeSubs =       '-----^--!';
    const expected =        '-a-b----(D|)';
    const kept: string[] = [];

    const result$ = source$.pipe(keepFrames(endChatStream(), { frame: (frame) => kept.push(frame), whole: () => whole$ }));
    m.expect(result$).toBeObservable(expected, { a: 'a', b: 'b', D: DONE_FRAME });
    m.expect(whole$).toHaveSubscriptions(wholeSubs);
    m.flush();
    expect(kept).toEqual(['a', 'b', DONE_FRAME]);
  }));

  it('holds the error frame of a failure until the answer is kept', marbles((m) => {
    const failure = new AgentError('the tool exploded');
    const source$ =  m.cold('-a-#', undefined, failure);
    const whole$ =   m.cold(   '---|');
    const expected =        '-a----(E|)';
    const kept: string[] = [];

    const result$ = source$.pipe(keepFrames(endChatStream(), { frame: (frame) => kept.push(frame), whole: () => whole$ }));
    m.expect(result$).toBeObservable(expected, { a: 'a', E: toErrorFrame(failure) });
    m.flush();
    expect(kept).toEqual(['a', toErrorFrame(failure)]);
  }));

  it('still sends the end when keeping it failed', marbles((m) => {
    const source$ =  m.cold('-a|');
    const whole$ =   m.cold(  '--#');
    const expected =        '-a--(D|)';

    m.expect(source$.pipe(keepFrames(endChatStream(), { frame: () => undefined, whole: () => whole$ }))).toBeObservable(expected, {
      a: 'a',
      D: DONE_FRAME,
    });
  }));

  it('keeps nothing more, and never calls the answer whole, when unsubscribed before the end', marbles((m) => {
    const source$ =  m.cold('-a-b-|');
    const sourceSubs =      '^--!';
    const unsubscribe =     '---!';
    const expected =        '-a--';
    let whole = false;

    const result$ = source$.pipe(keepFrames(endChatStream(), { frame: () => undefined, whole: () => ((whole = true), []) }));
    m.expect(result$, unsubscribe).toBeObservable(expected, { a: 'a' });
    m.expect(source$).toHaveSubscriptions(sourceSubs);
    m.flush();
    expect(whole).toBe(false);
  }));
});
