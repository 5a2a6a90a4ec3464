import { describe, expect, it } from 'vitest';
import { AgentError } from '../../src/errors/AgentError.js';
import { serializeFrame } from '../../src/sse/serializeFrame.js';
import { EVENTS, FRAMES } from '../support/chatFrames.js';
import { marbles } from '../support/marbles.js';
import { FakeSink, runChatPipeline } from '../../src/testing.js';

describe('run completion', () => {
  it('ends a completed run with its finish chunk and [DONE], and never interrupts it', marbles((m) => {
    const sink = new FakeSink(m.scheduler);
    const events$ =      m.cold('-a-b-f|', EVENTS);
    const eventsSubs =          '^-----!';
    const clientClose$ = m.hot( '----------');
    const expected =            'RA-B-F(D|)';

    const { output$, interrupts, aborts } = runChatPipeline(m.scheduler, { events$, clientClose$, sink });
    m.expect(output$).toBeObservable(expected, FRAMES);
    m.expect(events$).toHaveSubscriptions(eventsSubs);
    m.flush();

    expect(interrupts).toEqual([]);
    expect(aborts).toEqual([]);
    expect(sink.writes.at(-1)?.chunk).toBe('data: [DONE]\n\n');
  }));

  it('ends a failed run with one error frame, no finish chunk, no [DONE] and no interrupt', marbles((m) => {
    const sink = new FakeSink(m.scheduler);
    const failure = new AgentError('the tool exploded');
    const events$ =      m.cold('-a-#', EVENTS, failure);
    const eventsSubs =          '^--!';
    const clientClose$ = m.hot( '---------');
    const expected =            'RA-(X|)';
    const errorFrame = serializeFrame({
      data: JSON.stringify({ error: { message: 'rxgate: the tool exploded', type: 'server_error', param: null, code: 'agent_error' } }),
    });

    const { output$, interrupts, aborts } = runChatPipeline(m.scheduler, { events$, clientClose$, sink });
    m.expect(output$).toBeObservable(expected, { ...FRAMES, X: errorFrame });
    m.expect(events$).toHaveSubscriptions(eventsSubs);
    m.flush();

    expect(interrupts).toEqual([]);
    expect(aborts).toEqual([]);
    // Frames of one turn go out as one write: look for the stop chunk inside what was written, not among the writes.
    expect(sink.writes.map((write) => write.chunk).join('')).not.toContain(FRAMES.F);
  }));
});
