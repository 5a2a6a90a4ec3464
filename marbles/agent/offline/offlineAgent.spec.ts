import { describe, expect, it } from 'vitest';
import { Cancellation } from '../../../src/agent/cancellation.js';
import { InterruptReason } from '../../../src/agent/interruptReason.js';
import { createOfflineAgent } from '../../../src/agent/offline/createOfflineAgent.js';
import { paceWords } from '../../../src/agent/offline/paceWords.js';
import { captureLogger } from '../../../test/support/captureLogger.js';
import { marbles } from '../../support/marbles.js';

const QUESTION = { model: 'rxgate-agent', messages: [{ role: 'user' as const, content: 'hello there' }] };
const word = (delta: string) => ({ type: 'text' as const, delta });

describe('paceWords', () => {
  it('emits one word, with the space after it, every delayMs', marbles((m) => {
    const expected = '--a-b-(c|)';
    m.expect(paceWords('one two  three', 2, m.scheduler)).toBeObservable(expected, { a: word('one '), b: word('two  '), c: word('three') });
  }));
});

describe('the offline agent', () => {
  it('paces its answer one word every delayMs', marbles((m) => {
    const agent = createOfflineAgent({ delayMs: 10, scheduler: m.scheduler });
    const run$ = agent.run(QUESTION, new Cancellation());
    const runSubs = '^ 30ms !';
    const expected = '10ms a 9ms b 9ms c';
    m.expect(run$, runSubs).toBeObservable(expected, { a: word('Hello! '), b: word('I '), c: word('am ') });
  }));

  it('interrupts once, with the reason, when unsubscribed mid-answer, and emits nothing after', marbles((m) => {
    const { logger, lines } = captureLogger();
    const cancellation = new Cancellation();
    const agent = createOfflineAgent({ delayMs: 10, scheduler: m.scheduler, logger });
    const runSubs = '^ 14ms !';
    const expected = '10ms a';
    m.expect(agent.run(QUESTION, cancellation), runSubs).toBeObservable(expected, { a: word('Hello! ') });
    m.scheduler.schedule(() => cancellation.cancelWith(InterruptReason.shuttingDown), 14);
    m.flush();

    expect(lines.filter((line) => line.msg === 'offline run interrupted')).toEqual([
      expect.objectContaining({ level: 30, reason: InterruptReason.shuttingDown }),
    ]);
  }));

  it('finishes with usage and stop after the last word, and is not interrupted', marbles((m) => {
    const { logger, lines } = captureLogger();
    const agent = createOfflineAgent({ delayMs: 1, scheduler: m.scheduler, logger });
    const events: { type: string }[] = [];
    agent.run(QUESTION, new Cancellation()).subscribe((event) => events.push(event));
    m.flush();

    expect(events.slice(-2)).toEqual([
      { type: 'usage', usage: expect.objectContaining({ inputTokens: 2 }) },
      { type: 'finish', reason: 'stop' },
    ]);
    expect(events.filter((event) => event.type === 'text').length).toBeGreaterThan(20);
    expect(lines).toEqual([]);
  }));
});
