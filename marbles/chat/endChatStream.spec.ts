import { describe, it } from 'vitest';
import { endChatStream } from '../../src/chat/endChatStream.js';
import { DONE_FRAME } from '../../src/chat/done.js';
import { toErrorFrame } from '../../src/chat/toErrorFrame.js';
import { AgentError } from '../../src/errors/AgentError.js';
import { marbles } from '../support/marbles.js';

describe('endChatStream', () => {
  it('appends [DONE] after a clean completion', marbles((m) => {
    const source$ =  m.cold('--a--|');
    const expected =        '--a--(D|)';

    m.expect(source$.pipe(endChatStream())).toBeObservable(expected, { a: 'a', D: DONE_FRAME });
  }));

  it('ends a failure with one error frame and a clean completion, and no [DONE]', marbles((m) => {
    const failure = new AgentError('the tool exploded');
    const source$ =  m.cold('--a--#', undefined, failure);
    const sourceSubs =      '^----!';
    const expected =        '--a--(E|)';

    m.expect(source$.pipe(endChatStream())).toBeObservable(expected, { a: 'a', E: toErrorFrame(failure) });
    m.expect(source$).toHaveSubscriptions(sourceSubs);
  }));
});
