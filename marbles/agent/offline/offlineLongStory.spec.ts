import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/agent/agentEvent.js';
import { Cancellation } from '../../../src/agent/cancellation.js';
import { createOfflineAgent } from '../../../src/agent/offline/createOfflineAgent.js';
import { LONG_STORY } from '../../../src/agent/offline/longStory.js';
import { selectTools } from '../../../src/agent/tools/createToolRegistry.js';
import { marbles } from '../../support/marbles.js';

const ask = (content: string) => ({ model: 'rxgate-agent', messages: [{ role: 'user' as const, content }] });
const word = (delta: string) => ({ type: 'text' as const, delta });

describe('the offline agent asked for a long story', () => {
  it('tells it one word every six word delays', marbles((m) => {
    const agent = createOfflineAgent({ delayMs: 10, scheduler: m.scheduler });
    const runSubs = '^ 180ms !';
    const expected = '60ms a 59ms b 59ms c';
    m.expect(agent.run(ask('Tell me a long story'), new Cancellation()), runSubs).toBeObservable(expected, { a: word('Once '), b: word('upon '), c: word('a ') });
  }));

  it('takes about a minute at the default pace, long enough to stop or resume it by hand', marbles((m) => {
    const agent = createOfflineAgent({ tools: selectTools(['current_time', 'calculator']), scheduler: m.scheduler });
    const events: AgentEvent[] = [];
    let finishedAt = -1;
    agent.run(ask('Please, tell me a LONG story.'), new Cancellation()).subscribe({
      next: (event) => events.push(event),
      complete: () => (finishedAt = m.scheduler.now()),
    });
    m.flush();

    expect(events.map((event) => (event.type === 'text' ? event.delta : '')).join('')).toBe(LONG_STORY);
    expect(events.slice(-1)).toEqual([{ type: 'finish', reason: 'stop' }]);
    expect(finishedAt).toBeGreaterThanOrEqual(55_000);
    expect(finishedAt).toBeLessThanOrEqual(70_000);
  }));

  it('keeps the default pace for every other answer', marbles((m) => {
    const agent = createOfflineAgent({ scheduler: m.scheduler });
    let finishedAt = -1;
    agent.run(ask('Tell me a short one'), new Cancellation()).subscribe({ complete: () => (finishedAt = m.scheduler.now()) });
    m.flush();

    expect(finishedAt).toBeLessThan(5_000);
  }));
});
