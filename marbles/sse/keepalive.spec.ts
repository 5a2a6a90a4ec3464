import { describe, expect, it } from 'vitest';
import { keepalive } from '../../src/sse/keepalive.js';
import { EVENTS, FRAMES } from '../support/chatFrames.js';
import { marbles } from '../support/marbles.js';
import { FakeSink, runChatPipeline } from '../../src/testing.js';

describe('keepalive', () => {
  it('sends the first comment exactly ms after the last frame, and none after completion', marbles((m) => {
    const source$ =  m.cold('-A------B|', FRAMES);
    const expected =        '-A--K--KB|';

    m.expect(source$.pipe(keepalive(3, m.scheduler))).toBeObservable(expected, FRAMES);
    m.flush();
    // The timer armed at 7 for 10 was let go at the completion: nothing ran after 9.
    expect(m.scheduler.frame).toBe(9);
  }));

  it('sends nothing while frames flow faster than ms', marbles((m) => {
    const source$ =  m.cold('-ABABABAB|', FRAMES);
    const expected =        '-ABABABAB|';

    m.expect(source$.pipe(keepalive(3, m.scheduler))).toBeObservable(expected, FRAMES);
  }));

  it('starts counting at subscription, before the first frame', marbles((m) => {
    const source$ =  m.cold('-----A|', FRAMES);
    const expected =        '--K-KA|';

    m.expect(source$.pipe(keepalive(2, m.scheduler))).toBeObservable(expected, FRAMES);
  }));

  it('stops with an error, leaving no timer behind', marbles((m) => {
    const source$ =  m.cold('-A---#', FRAMES);
    const subs =            '^----!';
    const expected =        '-A--K#';

    m.expect(source$.pipe(keepalive(3, m.scheduler))).toBeObservable(expected, FRAMES);
    m.expect(source$).toHaveSubscriptions(subs);
    m.flush();
    // The timer armed at 4 for 7 was let go at the error: nothing ran after 5.
    expect(m.scheduler.frame).toBe(5);
  }));

  it('keeps a silent agent alive from the first byte (the role chunk) through the pipeline', marbles((m) => {
    const sink = new FakeSink(m.scheduler);
    const events$ =      m.cold('-------a|', EVENTS);
    const clientClose$ = m.hot( '-----------');
    const expected =            'R---K--A(FD|)';

    const { output$ } = runChatPipeline(m.scheduler, { events$, clientClose$, sink, keepaliveMs: 4 });
    m.expect(output$).toBeObservable(expected, FRAMES);
  }));
});
