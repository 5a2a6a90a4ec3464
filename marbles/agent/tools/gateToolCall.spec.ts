import { map, merge, mergeMap, NEVER, tap, type Observable } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentEvent } from '../../../src/agent/agentEvent.js';
import type { ApprovalAnswer, ApprovalChoice } from '../../../src/agent/approval.js';
import { approvalPolicy } from '../../../src/agent/tools/approvalPolicy.js';
import { ApprovedAlways } from '../../../src/agent/tools/ApprovedAlways.js';
import { gateToolCall, type ToolGate } from '../../../src/agent/tools/gateToolCall.js';
import { defineTool } from '../../../src/agent/tools/tool.js';
import { marbles } from '../../support/marbles.js';

const signal = new AbortController().signal;
const ARGS = '{"text":"milk"}';
const CALL = { callId: 'call_1', name: 'note', arguments: ARGS };

/** A `note` tool that needs approval and counts its runs (its result comes from a promise, after the spec: only its start is in virtual time). */
function noteTool() {
  const runs = { count: 0 };
  const tool = defineTool({
    name: 'note',
    description: 'notes',
    parameters: z.object({ text: z.string() }),
    requiresApproval: true,
    run: async ({ text }) => {
      runs.count++;
      return `Noted: ${text}`;
    },
  });
  return { tool, runs };
}

/**
 * A gate in `wait` mode whose answers are `answers` (each letter a choice: o = once, a = always,
 * d = deny), addressed to the approval the gate asked for, as a person reading the event would.
 */
function waitingGate(scheduler: TestScheduler, answers$: Observable<string>, timeoutMs = 100) {
  let approvalId = '';
  const choices: Record<string, ApprovalChoice> = { o: 'once', a: 'always', d: 'deny' };
  const gate: ToolGate = {
    needsApproval: approvalPolicy(),
    approvals: {
      mode: 'wait',
      timeoutMs,
      answers$: answers$.pipe(map((letter): ApprovalAnswer => ({ approvalId, choice: choices[letter]!, reason: 'not now', by: 'api' }))),
    },
    approvedAlways: new ApprovedAlways(),
    scheduler,
  };
  const watch = tap((event: AgentEvent) => {
    if (event.type === 'approval_required') approvalId = event.approvalId;
  });
  return { gate, watch };
}

const APPROVAL_ID = expect.stringMatching(/^apr_[0-9a-f]{24}$/);
const required = (expiresAt: number) => ({ type: 'approval_required', approvalId: APPROVAL_ID, callId: 'call_1', name: 'note', arguments: ARGS, expiresAt });
const resolved = (choice: ApprovalChoice, at: number, by = 'api', reason = 'not now') => ({ type: 'approval_resolved', approvalId: APPROVAL_ID, callId: 'call_1', name: 'note', choice, reason, by, at });
const started = { type: 'tool_start', callId: 'call_1', name: 'note', arguments: ARGS };

describe('gateToolCall', () => {
  it('waits for the answer: no tool start until it comes, then the call starts at that frame', marbles((m) => {
    const { tool, runs } = noteTool();
    const answers$ = m.hot('      ------o');
    const expected = '            R-----(DS';
    const { gate, watch } = waitingGate(m.scheduler, answers$);

    m.expect<unknown>(gateToolCall(tool, CALL, signal, gate).pipe(watch)).toBeObservable(expected, {
      R: required(100),
      D: resolved('once', 6),
      S: started,
    });
    m.flush();
    expect(runs.count).toBe(1);
  }));

  it('denies at the frame of the answer: the tool error says a person refused, with the reason, and the tool never runs', marbles((m) => {
    const { tool, runs } = noteTool();
    const answers$ = m.hot('      ----d');
    const expected = '            R---(DE|)';
    const { gate, watch } = waitingGate(m.scheduler, answers$);

    m.expect<unknown>(gateToolCall(tool, CALL, signal, gate).pipe(watch)).toBeObservable(expected, {
      R: required(100),
      D: resolved('deny', 4),
      E: { type: 'tool_end', callId: 'call_1', name: 'note', error: 'a person refused this call: not now', durationMs: 0 },
    });
    m.flush();
    expect(runs.count).toBe(0);
  }));

  it('denies at exactly timeoutMs when nobody answers, with a reason that says it timed out', marbles((m) => {
    const { tool, runs } = noteTool();
    const expected = '            R----(DE|)';
    const { gate, watch } = waitingGate(m.scheduler, NEVER, 5);
    const reason = 'timed out: nobody answered within 5 ms (RXGATE_APPROVAL_TIMEOUT_MS)';

    m.expect<unknown>(gateToolCall(tool, CALL, signal, gate).pipe(watch)).toBeObservable(expected, {
      R: required(5),
      D: resolved('deny', 5, 'timeout', reason),
      E: { type: 'tool_end', callId: 'call_1', name: 'note', error: `the call was not approved: ${reason}`, durationMs: 0 },
    });
    m.flush();
    expect(runs.count).toBe(0);
  }));

  it('is interrupted at the stop frame while it waits: an answer after it is not heard, the tool never starts', marbles((m) => {
    const { tool, runs } = noteTool();
    const answers$ = m.hot('      ------o');
    const unsub = '               ^--!';
    const expected = '            R---';
    const { gate, watch } = waitingGate(m.scheduler, answers$);

    m.expect<unknown>(gateToolCall(tool, CALL, signal, gate).pipe(watch), unsub).toBeObservable(expected, { R: required(100) });
    m.expect(answers$).toHaveSubscriptions('^--!');
    m.flush();
    expect(runs.count).toBe(0);
  }));

  it('after always, a later call of the same tool in the run starts at once', marbles((m) => {
    const { tool, runs } = noteTool();
    const answers$ = m.hot('      --a');
    const { gate, watch } = waitingGate(m.scheduler, answers$);
    const later$ = m.cold('       ----x').pipe(mergeMap(() => gateToolCall(tool, { ...CALL, callId: 'call_2' }, signal, gate)));

    m.expect<unknown>(gateToolCall(tool, CALL, signal, gate).pipe(watch)).toBeObservable('R-(DS', { R: required(100), D: resolved('always', 2), S: started });
    m.expect<unknown>(later$).toBeObservable('----S', { S: { ...started, callId: 'call_2' } });
    m.flush();
    expect(runs.count).toBe(2);
  }));

  it('"always" also lets the calls of the same tool that wait already go on, at the frame of the answer, as the same answer', marbles((m) => {
    const { tool, runs } = noteTool();
    const ids: string[] = [];
    // The person answers the first call's approval; the second call asked too and waits.
    const answers$ = m.hot('      ----a').pipe(map((): ApprovalAnswer => ({ approvalId: ids[0]!, choice: 'always', reason: 'fine', by: 'api' })));
    const gate: ToolGate = { needsApproval: approvalPolicy(), approvals: { mode: 'wait', timeoutMs: 100, answers$ }, approvedAlways: new ApprovedAlways(), scheduler: m.scheduler };
    const second = { ...CALL, callId: 'call_2' };
    const both$ = merge(gateToolCall(tool, CALL, signal, gate), gateToolCall(tool, second, signal, gate)).pipe(
      tap((event) => event.type === 'approval_required' && ids.push(event.approvalId)),
    );

    m.expect<unknown>(both$).toBeObservable('(RQ)(DSET', {
      R: required(100),
      Q: { ...required(100), callId: 'call_2' },
      D: resolved('always', 4, 'api', 'fine'),
      S: started,
      E: { ...resolved('always', 4, 'api', expect.stringMatching(/^"always" was answered to apr_[0-9a-f]{24}$/)), callId: 'call_2' },
      T: { ...started, callId: 'call_2' },
    });
    m.flush();
    expect(runs.count).toBe(2);
  }));

  it('runs a tool that needs no approval at once', marbles((m) => {
    const { tool } = noteTool();
    const { gate } = waitingGate(m.scheduler, NEVER);

    const plain = { ...tool, requiresApproval: false };

    m.expect<unknown>(gateToolCall(plain, CALL, signal, { ...gate, needsApproval: approvalPolicy(['calc*']) })).toBeObservable('S', { S: started });
    expect(approvalPolicy(['fs__write_*'])({ ...tool, name: 'fs__write_file', requiresApproval: false })).toBe(true);
    expect(approvalPolicy(['fs__write_*'])({ ...tool, name: 'fs__read_file', requiresApproval: false })).toBe(false);
  }));

  it('in end mode goes on at once with the answer given, and without one emits only the request (the run ends on it)', marbles((m) => {
    const { tool, runs } = noteTool();
    const decided = new Map([['call_1', { approvalId: 'mcpr_call_1', choice: 'deny' as const, by: 'api' as const }]]);
    const gate: ToolGate = { needsApproval: approvalPolicy(), approvals: { mode: 'end', decided }, approvedAlways: new ApprovedAlways(), scheduler: m.scheduler };

    m.expect<unknown>(gateToolCall(tool, CALL, signal, gate)).toBeObservable('(DE|)', {
      D: { type: 'approval_resolved', approvalId: 'mcpr_call_1', callId: 'call_1', name: 'note', choice: 'deny', by: 'api', at: 0 },
      E: { type: 'tool_end', callId: 'call_1', name: 'note', error: 'a person refused this call (no reason given)', durationMs: 0 },
    });
    m.expect<unknown>(gateToolCall(tool, { ...CALL, callId: 'call_2' }, signal, gate)).toBeObservable('(R|)', {
      R: { type: 'approval_required', approvalId: 'mcpr_call_2', callId: 'call_2', name: 'note', arguments: ARGS },
    });
    m.flush();
    expect(runs.count).toBe(0);
  }));
});
