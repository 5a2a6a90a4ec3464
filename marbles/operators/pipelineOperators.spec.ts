import { filter } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { InterruptReason } from '../../src/agent/interruptReason.js';
import { coalesce } from '../../src/operators/coalesce.js';
import { deadline } from '../../src/operators/deadline.js';
import { maxOutput } from '../../src/operators/maxOutput.js';
import { rateLimit } from '../../src/operators/rateLimit.js';
import type { PipelineOperators } from '../../src/http/pipelineOperators.js';
import { serializeFrame } from '../../src/sse/serializeFrame.js';
import { chunkFrame, EVENTS, FRAMES, text } from '../support/chatFrames.js';
import { marbles } from '../support/marbles.js';
import { FakeSink, runChatPipeline } from '../../src/testing.js';

describe('user operators in the chat pipeline', () => {
  it('rateLimit then coalesce: the client leaving still unsubscribes and interrupts the run at that very frame', marbles((m) => {
    const sink = new FakeSink(m.scheduler);
    // One character per frame, two at a time: "ab" at 1, "cd" at 3, "ef" at 5, "gh" at 7; each held one frame by coalesce.
    const operators: PipelineOperators = {
      events: [
        ({ scheduler }) => rateLimit({ charsPerSecond: 1000, burst: 2, scheduler }),
        ({ scheduler }) => coalesce({ windowMs: 1, scheduler }),
      ],
    };
    const events$ =      m.cold('-w---------|', { w: text('abcdefgh') });
    const eventsSubs =          '^----!';
    const clientClose$ = m.hot( '-----x');
    const expected =            'R-X-Y|';

    const { output$, interrupts, aborts } = runChatPipeline(m.scheduler, { events$, clientClose$, sink, operators });
    m.expect(output$).toBeObservable(expected, { ...FRAMES, X: chunkFrame({ content: 'ab' }), Y: chunkFrame({ content: 'cd' }) });
    m.expect(events$).toHaveSubscriptions(eventsSubs);
    m.flush();

    expect(interrupts).toEqual([{ reason: InterruptReason.clientDisconnected, frame: 5 }]);
    expect(aborts).toEqual([5]);
    expect(sink.writes.map((write) => write.frame)).toEqual([0, 2, 4]);
    expect(m.scheduler.frame).toBe(5); // no pacing or window timer outlived the response
  }));

  it('deadline: the client gets a timeout error frame and the run is interrupted with "Deadline exceeded" at the limit', marbles((m) => {
    const sink = new FakeSink(m.scheduler);
    const operators: PipelineOperators = {
      events: [({ cancellation, scheduler }) => deadline({ totalMs: 4, cancellation, scheduler })],
    };
    const events$ =      m.cold('-a-b------|', EVENTS);
    const eventsSubs =          '^---!';
    const clientClose$ = m.hot( '----------');
    const expected =            'RA-B(X|)';
    const errorFrame = serializeFrame({
      data: JSON.stringify({
        error: {
          message: 'rxgate: the run did not finish within its deadline of 4 ms and was stopped (raise totalMs of deadline() if answers legitimately take longer)',
          type: 'timeout_error',
          param: null,
          code: 'deadline_exceeded',
        },
      }),
    });

    const { output$, interrupts, aborts } = runChatPipeline(m.scheduler, { events$, clientClose$, sink, operators });
    m.expect(output$).toBeObservable(expected, { ...FRAMES, X: errorFrame });
    m.expect(events$).toHaveSubscriptions(eventsSubs);
    m.flush();

    expect(interrupts).toEqual([{ reason: InterruptReason.deadlineExceeded, frame: 4 }]);
    expect(aborts).toEqual([4]);
  }));

  it('maxOutput: the answer ends with finish_reason length and [DONE], and the run is interrupted with "Output limit reached"', marbles((m) => {
    const sink = new FakeSink(m.scheduler);
    const operators: PipelineOperators = {
      events: [({ cancellation }) => maxOutput({ maxChars: 2, cancellation })],
    };
    const events$ =      m.cold('-a-b-c-f|', EVENTS);
    const eventsSubs =          '^----!';
    const clientClose$ = m.hot( '----------');
    const expected =            'RA-B-(LD|)';

    const { output$, interrupts, aborts } = runChatPipeline(m.scheduler, { events$, clientClose$, sink, operators });
    m.expect(output$).toBeObservable(expected, { ...FRAMES, L: chunkFrame({}, 'length') });
    m.expect(events$).toHaveSubscriptions(eventsSubs);
    m.flush();

    expect(interrupts).toEqual([{ reason: InterruptReason.outputLimitReached, frame: 5 }]);
    expect(aborts).toEqual([5]);
  }));

  it('chunk operators see the encoded chunks, between the encoder and serialisation', marbles((m) => {
    const sink = new FakeSink(m.scheduler);
    const operators: PipelineOperators = {
      chunks: [() => filter((chunk) => chunk.choices[0]?.delta.content !== 'b')],
    };
    const events$ =      m.cold('-a-b-f|', EVENTS);
    const clientClose$ = m.hot( '--------');
    const expected =            'RA---F(D|)';

    const { output$ } = runChatPipeline(m.scheduler, { events$, clientClose$, sink, operators });
    m.expect(output$).toBeObservable(expected, FRAMES);
  }));
});
