import { describe, expect, it } from 'vitest';
import type { AgentEvent, Usage } from '../../../src/agent/agentEvent.js';
import { continueAfterTurn } from '../../../src/agent/llm/continueAfterTurn.js';
import type { TurnEnd, TurnEvent } from '../../../src/agent/llm/toTurnEvents.js';
import { marbles } from '../../support/marbles.js';

const usage: Usage = { inputTokens: 1, outputTokens: 2, totalTokens: 3 };
const end: TurnEnd = { type: 'turn_end', content: 'hi', toolCalls: [], clientToolCalls: [], finishReason: 'stop' };
const EVENTS: Record<string, TurnEvent> = { t: { type: 'text', delta: 'hi' }, u: { type: 'usage', usage }, e: end };
const OUT: Record<string, AgentEvent> = { t: { type: 'text', delta: 'hi' }, u: { type: 'usage', usage }, f: { type: 'finish', reason: 'stop' } };

describe('continueAfterTurn', () => {
  it('passes the deltas, keeps the turn end, and continues with what next$ makes of it', marbles((m) => {
    const source$ =  m.cold('-t-u-(e|)', EVENTS);
    const sourceSubs =      '^----!';
    const next$ =    m.cold(     '-f|', OUT);
    const nextSubs =        '-----^-!';
    const expected =        '-t-u--f|';
    const ends: TurnEnd[] = [];
    const usages: Usage[] = [];

    const result$ = source$.pipe(continueAfterTurn((turnEnd) => (ends.push(turnEnd), next$), (seen) => usages.push(seen)));
    m.expect(result$).toBeObservable(expected, OUT);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
    m.expect(next$).toHaveSubscriptions(nextSubs);
    m.flush();
    expect(ends).toEqual([end]);
    expect(usages).toEqual([usage]);
  }));

  it('completes when the call ended without a turn end', marbles((m) => {
    const source$ =  m.cold('-t-|', EVENTS);
    const expected =        '-t-|';

    m.expect(source$.pipe(continueAfterTurn(() => m.cold('-f|', OUT)))).toBeObservable(expected, OUT);
  }));

  it('passes an error on and never continues', marbles((m) => {
    const source$ =  m.cold('-t-#', EVENTS);
    const expected =        '-t-#';
    let continued = false;

    m.expect(source$.pipe(continueAfterTurn(() => ((continued = true), [])))).toBeObservable(expected, OUT);
    m.flush();
    expect(continued).toBe(false);
  }));

  it('unsubscribes the continuation when the subscriber leaves', marbles((m) => {
    const source$ =  m.cold('-t-(e|)', EVENTS);
    const next$ =    m.cold(   '-f-----f|', OUT);
    const nextSubs =        '---^---!';
    const unsub =           '-------!';
    const expected =        '-t--f---';

    m.expect(source$.pipe(continueAfterTurn(() => next$)), unsub).toBeObservable(expected, OUT);
    m.expect(next$).toHaveSubscriptions(nextSubs);
  }));
});
