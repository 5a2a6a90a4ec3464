import { map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agentEvent.js';
import { InterruptReason } from '../../src/agent/interruptReason.js';
import type { PipelineOperators } from '../../src/http/pipelineOperators.js';
import type { RunEvent } from '../../src/runs/runEvent.js';
import { runRunEvents } from '../../src/testing.js';
import { EVENTS } from '../support/chatFrames.js';
import { marbles } from '../support/marbles.js';

const shout = (event: AgentEvent): AgentEvent => (event.type === 'text' ? { ...event, delta: event.delta.toUpperCase() } : event);

/** Both kinds of user operator: the agent's text upper-cased, each `message.delta` marked. */
const OPERATORS: PipelineOperators = {
  events: [() => map(shout)],
  runEvents: [() => map((event: RunEvent) => (event.type === 'message.delta' ? { ...event, delta: `${event.delta}!` } : event))],
};

const RUN_EVENTS: Record<string, RunEvent> = {
  A: { type: 'message.delta', delta: 'A!' },
  B: { type: 'message.delta', delta: 'B!' },
};

describe("a run's events with user operators", () => {
  it('applies both kinds, and a stop still interrupts the run at that very frame', marbles((m) => {
    const events$ = m.cold('10ms a 9ms b 9ms c 9ms |', EVENTS);
    const eventsSubs =     '^ 24ms !';
    const stop$ =   m.hot( '25ms x');
    const expected =       '10ms A 9ms B 4ms |';

    const { output$, interrupts, aborts } = runRunEvents(m.scheduler, { events$, stop$, operators: OPERATORS });
    m.expect(output$).toBeObservable(expected, RUN_EVENTS);
    m.expect(events$).toHaveSubscriptions(eventsSubs);
    m.flush();

    expect(interrupts).toEqual([{ reason: InterruptReason.stopRequested, frame: 25 }]);
    expect(aborts).toEqual([25]);
  }));
});
