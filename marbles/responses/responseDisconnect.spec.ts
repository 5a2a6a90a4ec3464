import { map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agentEvent.js';
import { InterruptReason } from '../../src/agent/interruptReason.js';
import type { PipelineOperators } from '../../src/http/pipelineOperators.js';
import { FakeSink, runResponsePipeline } from '../../src/testing.js';
import { EVENTS } from '../support/chatFrames.js';
import { marbles } from '../support/marbles.js';

const shout = (event: AgentEvent): AgentEvent => (event.type === 'text' ? { ...event, delta: event.delta.toUpperCase() } : event);

/** Both kinds of user operator: the agent's text upper-cased, each `output_text.delta` marked. */
const OPERATORS: PipelineOperators = {
  events: [() => map(shout)],
  responseEvents: [() => map((event) => (event.type === 'response.output_text.delta' ? { ...event, delta: `${String(event.delta)}!` } : event))],
};

/** A frame as its event type, and the delta it carries if any. */
function summary(frame: string): string {
  const event = JSON.parse(frame.slice(frame.indexOf('data: ') + 6)) as { type: string; delta?: string };
  return event.delta === undefined ? event.type : `${event.type} ${event.delta}`;
}

const SUMMARIES = {
  P: 'response.created',
  Q: 'response.in_progress',
  O: 'response.output_item.added',
  C: 'response.content_part.added',
  A: 'response.output_text.delta A!',
  B: 'response.output_text.delta B!',
};

describe('a streaming response with user operators', () => {
  it('applies both kinds, and the client leaving still interrupts the run at that very frame', marbles((m) => {
    const sink = new FakeSink(m.scheduler);
    const events$ =      m.cold('10ms a 9ms b 9ms c 9ms d 9ms |', EVENTS);
    const eventsSubs =          '^ 24ms !';
    const clientClose$ = m.hot( '25ms x');
    const expected =            '(PQ) 6ms (OCA) 5ms B 4ms |';

    const { output$, interrupts, aborts } = runResponsePipeline(m.scheduler, { events$, clientClose$, sink, operators: OPERATORS });
    m.expect(output$.pipe(map(summary))).toBeObservable(expected, SUMMARIES);
    m.expect(events$).toHaveSubscriptions(eventsSubs);
    m.flush();

    expect(interrupts).toEqual([{ reason: InterruptReason.clientDisconnected, frame: 25 }]);
    expect(aborts).toEqual([25]);
    expect(sink.writes.every((write) => write.frame < 25)).toBe(true);
  }));

  it('interrupts a silent agent at the disconnect frame, before any text', marbles((m) => {
    const sink = new FakeSink(m.scheduler);
    const events$ =      m.cold('10s a|', EVENTS);
    const eventsSubs =          '^ 3999ms !';
    const clientClose$ = m.hot( '4s x');
    const expected =            '(PQ) 3996ms |';

    const { output$, interrupts } = runResponsePipeline(m.scheduler, { events$, clientClose$, sink, operators: OPERATORS, keepaliveMs: 30_000 });
    m.expect(output$.pipe(map(summary))).toBeObservable(expected, SUMMARIES);
    m.expect(events$).toHaveSubscriptions(eventsSubs);
    m.flush();

    expect(interrupts).toEqual([{ reason: InterruptReason.clientDisconnected, frame: 4000 }]);
  }));
});
