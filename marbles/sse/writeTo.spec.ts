import { describe, expect, it } from 'vitest';
import { Cancellation } from '../../src/agent/cancellation.js';
import { writeTo } from '../../src/sse/writeTo.js';
import { marbles } from '../support/marbles.js';
import { FakeSink } from '../../src/testing.js';

const FRAMES = { a: 'data: a\n\n', b: 'data: b\n\n', c: 'data: c\n\n' };

describe('writeTo', () => {
  it('writes the frames of one turn as one write, and each turn as soon as it ends', marbles((m) => {
    const sink = new FakeSink(m.scheduler);
    const source$ =  m.cold('-(ab)-c|', FRAMES);
    const expected =        '-(ab)-c|';

    m.expect(source$.pipe(writeTo(sink, { cancellation: new Cancellation(), scheduler: m.scheduler }))).toBeObservable(expected, FRAMES);
    m.flush();
    expect(sink.writes).toEqual([
      { frame: 1, chunk: FRAMES.a + FRAMES.b },
      { frame: 6, chunk: FRAMES.c },
    ]);
  }));

  it('completes only after what it holds for a slow client went out', marbles((m) => {
    const sink = new FakeSink(m.scheduler, { acceptWrites: 1 });
    const source$ =  m.cold('-a-b-c|', FRAMES);
    const drain$ =   m.hot( '---------x');
    const expected =        '-a-------(bc|)';

    drain$.subscribe(() => sink.drain());
    m.expect(source$.pipe(writeTo(sink, { cancellation: new Cancellation(), scheduler: m.scheduler }))).toBeObservable(expected, FRAMES);
    m.flush();
    expect(sink.writes).toEqual([
      { frame: 1, chunk: FRAMES.a },
      { frame: 9, chunk: FRAMES.b + FRAMES.c },
    ]);
  }));
});
