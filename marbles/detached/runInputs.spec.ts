import { describe, expect, it } from 'vitest';
import type { AgentEventOf } from '../../src/agent/agentEvent.js';
import type { ApprovalAnswer } from '../../src/agent/approval.js';
import { RunInputs } from '../../src/detached/RunInputs.js';
import { marbles } from '../support/marbles.js';

const REQUIRED: AgentEventOf<'approval_required'> = { type: 'approval_required', approvalId: 'apr_1', callId: 'c1', name: 'note', arguments: '{}', expiresAt: 10 };
const ONCE: ApprovalAnswer = { approvalId: 'apr_1', choice: 'once', by: 'api' };
const RESOLVED: AgentEventOf<'approval_resolved'> = { type: 'approval_resolved', approvalId: 'apr_1', callId: 'c1', name: 'note', choice: 'once', by: 'api', at: 3 };

describe('RunInputs', () => {
  it('hands an answer to a waiting approval to the run, and reports what the run resolved in the same turn', () => {
    const inputs = new RunInputs(100);
    const approvals = inputs.approvals;
    if (approvals.mode !== 'wait') throw new Error('the Runs API waits');
    approvals.answers$.subscribe(() => inputs.follow(RESOLVED));
    inputs.follow(REQUIRED);
    expect(inputs.pending).toEqual([REQUIRED]);

    expect(inputs.answer(ONCE)).toEqual({ resolved: RESOLVED });
    expect(inputs.pending).toEqual([]);
    expect(inputs.answer(ONCE)).toEqual({ refused: 'already_resolved', earlier: RESOLVED });
    expect(inputs.answer({ ...ONCE, approvalId: 'apr_nope' })).toEqual({ refused: 'unknown' });
  });

  it('passes steers and delivered inputs on in order, as they come', marbles((m) => {
    const inputs = new RunInputs(100);
    m.scheduler.schedule(() => inputs.steer('a'), 1);
    m.scheduler.schedule(() => inputs.deliver({ type: 'steer', input: 'b' }), 3);
    m.scheduler.schedule(() => inputs.close(), 4);

    m.expect(inputs.steers$).toBeObservable('-a-b|', { a: 'a', b: 'b' });
  }));

  it('refuses a steer, sent here or delivered, once the run stops listening: no model call would take it', marbles((m) => {
    const inputs = new RunInputs(100);
    const taken: boolean[] = [];
    m.scheduler.schedule(() => taken.push(inputs.steer('a')), 1);
    m.scheduler.schedule(() => taken.push(inputs.steer('b'), inputs.deliver({ type: 'steer', input: 'c' })), 3);

    m.expect(inputs.steers$, '^-!').toBeObservable('-a-', { a: 'a' });
    m.flush();
    expect(taken).toEqual([true, false, false]);
  }));
});
