import { describe, expect, it } from 'vitest';
import { InterruptReason } from '../../src/agent/interruptReason.js';
import { EVENTS, FRAMES } from '../support/chatFrames.js';
import { marbles } from '../support/marbles.js';
import { FakeSink, runChatPipeline } from '../../src/testing.js';

describe('client disconnect', () => {
  it('cancels the run at the frame the client leaves, and writes nothing after it', marbles((m) => {
    const sink = new FakeSink(m.scheduler);
    const events$ =      m.cold('-a-b-c-d-e-|', EVENTS);
    const eventsSubs =          '^---!';
    const clientClose$ = m.hot( '----x');
    const expected =            'RA-B|';

    const { output$, interrupts, aborts } = runChatPipeline(m.scheduler, { events$, clientClose$, sink });
    m.expect(output$).toBeObservable(expected, FRAMES);
    m.expect(events$).toHaveSubscriptions(eventsSubs);
    m.flush();

    expect(interrupts).toEqual([{ reason: InterruptReason.clientDisconnected, frame: 4 }]);
    expect(aborts).toEqual([4]);
    expect(sink.writes.map((write) => write.frame)).toEqual([0, 1, 3]);
  }));

  it('interrupts a silent agent at the disconnect frame, not at the next write', marbles((m) => {
    const sink = new FakeSink(m.scheduler);
    const events$ =      m.cold('-a 10s b|', EVENTS);
    const eventsSubs =          '^ 4001ms !';
    const clientClose$ = m.hot( '-- 4s x');
    const expected =            'RA 4s |';

    const { output$, interrupts, aborts } = runChatPipeline(m.scheduler, { events$, clientClose$, sink, keepaliveMs: 30_000 });
    m.expect(output$).toBeObservable(expected, FRAMES);
    m.expect(events$).toHaveSubscriptions(eventsSubs);
    m.flush();

    expect(interrupts).toEqual([{ reason: InterruptReason.clientDisconnected, frame: 4002 }]);
    expect(aborts).toEqual([4002]);
  }));

  it('does not interrupt a run that completed before the client left', marbles((m) => {
    const sink = new FakeSink(m.scheduler);
    const events$ =      m.cold('-a|', EVENTS);
    const eventsSubs =          '^-!';
    const clientClose$ = m.hot( '------x');
    const expected =            'RA(FD|)';

    const { output$, interrupts, aborts } = runChatPipeline(m.scheduler, { events$, clientClose$, sink });
    m.expect(output$).toBeObservable(expected, FRAMES);
    m.expect(events$).toHaveSubscriptions(eventsSubs);
    m.flush();

    expect(interrupts).toEqual([]);
    expect(aborts).toEqual([]);
  }));

  it('ends a run without an interrupt handle at the disconnect frame, and still aborts its signal', marbles((m) => {
    const sink = new FakeSink(m.scheduler);
    const events$ =      m.cold('-a-b-c-|', EVENTS);
    const eventsSubs =          '^---!';
    const clientClose$ = m.hot( '----x');
    const expected =            'RA-B|';

    const { output$, interrupts, aborts } = runChatPipeline(m.scheduler, { events$, clientClose$, sink, interruptHandle: 'none' });
    m.expect(output$).toBeObservable(expected, FRAMES);
    m.expect(events$).toHaveSubscriptions(eventsSubs);
    m.flush();

    expect(interrupts).toEqual([]);
    expect(aborts).toEqual([4]);
  }));

  it('survives an interrupt that throws: the run still ends at the disconnect frame', marbles((m) => {
    const sink = new FakeSink(m.scheduler);
    const events$ =      m.cold('-a-b-c-|', EVENTS);
    const eventsSubs =          '^---!';
    const clientClose$ = m.hot( '----x');
    const expected =            'RA-B|';

    const { output$, interrupts } = runChatPipeline(m.scheduler, { events$, clientClose$, sink, interruptHandle: 'throws' });
    m.expect(output$).toBeObservable(expected, FRAMES);
    m.expect(events$).toHaveSubscriptions(eventsSubs);
    m.flush();

    expect(interrupts).toEqual([{ reason: InterruptReason.clientDisconnected, frame: 4 }]);
  }));
});
