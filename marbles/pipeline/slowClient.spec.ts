import { describe, expect, it } from 'vitest';
import { InterruptReason } from '../../src/agent/interruptReason.js';
import { SlowClientError } from '../../src/errors/SlowClientError.js';
import { chunkFrame, EVENTS, FRAMES, text } from '../support/chatFrames.js';
import { marbles } from '../support/marbles.js';
import { FakeSink, runChatPipeline } from '../../src/testing.js';

const bytes = (frame: string) => Buffer.byteLength(frame);

describe('a slow client', () => {
  it('is sent held text deltas coalesced into one chunk when it drains, losing nothing', marbles((m) => {
    // The client stops reading after the role chunk and "a"; b, c and d wait for it.
    const sink = new FakeSink(m.scheduler, { acceptWrites: 2 });
    const events$ =      m.cold('-abcd|', EVENTS);
    const clientClose$ = m.hot( '----------');
    const drain$ =       m.hot( '-------x');
    const expected =            'RA-----(MFD|)';
    const maxBufferedBytes = Math.floor(bytes(FRAMES.B) * 2.5);

    drain$.subscribe(() => sink.drain());
    const { output$, interrupts } = runChatPipeline(m.scheduler, { events$, clientClose$, sink, maxBufferedBytes });
    m.expect(output$).toBeObservable(expected, { ...FRAMES, M: chunkFrame({ content: 'bcd' }) });
    m.flush();

    expect(interrupts).toEqual([]);
  }));

  it('is cut off with "SSE client too slow" once coalescing cannot keep it under the bound', marbles((m) => {
    const sink = new FakeSink(m.scheduler, { acceptWrites: 2 });
    const long = 'x'.repeat(150);
    const events$ =      m.cold('-axyz|', { a: EVENTS.a, x: text(long), y: text(long), z: text(long) });
    const eventsSubs =          '^---!';
    const clientClose$ = m.hot( '----------');
    const expected =            'RA--#';
    // x and y fit once merged, so the client is coalesced first; z cannot fit.
    const maxBufferedBytes = bytes(chunkFrame({ content: long + long })) + 10;

    const { output$, interrupts, aborts } = runChatPipeline(m.scheduler, { events$, clientClose$, sink, maxBufferedBytes });
    m.expect(output$).toBeObservable(expected, FRAMES, expect.objectContaining({ name: SlowClientError.name }));
    m.expect(events$).toHaveSubscriptions(eventsSubs);
    m.flush();

    expect(interrupts).toEqual([{ reason: InterruptReason.clientTooSlow, frame: 4 }]);
    expect(aborts).toEqual([4]);
  }));
});
