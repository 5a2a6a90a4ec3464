/**
 * A marble spec of the example's own operator, written the way you would write one for yours:
 * against `rxgate/testing` (here '../src/testing.js'), which runs rxgate's real chat pipeline in
 * virtual time around a scripted run and a fake response. `npm test` runs it.
 */
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { InterruptReason, type AgentEvent } from '../src/index.js';
import { FakeSink, runChatPipeline, TEST_META } from '../src/testing.js';
import { appendFooter } from './embeddedServer.js';

/** The exact bytes of one chunk the client gets, written out by hand. */
function frame(delta: Record<string, string>, finishReason: string | null = null): string {
  const { id, created, model } = TEST_META;
  const chunk = { id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

const EVENTS: Record<string, AgentEvent> = { a: { type: 'text', delta: 'Hi' }, f: { type: 'finish', reason: 'stop' } };
const FRAMES = {
  R: frame({ role: 'assistant' }),
  A: frame({ content: 'Hi' }),
  T: frame({ content: ' -- rxgate' }),
  S: frame({}, 'stop'),
  D: 'data: [DONE]\n\n',
};

const testScheduler = () => new TestScheduler((actual, expected) => expect(actual).toStrictEqual(expected));

describe('appendFooter in the chat pipeline', () => {
  it('adds the footer just before the finish, in the same frame', () => {
    const scheduler = testScheduler();
    scheduler.run((m) => {
      const sink = new FakeSink(scheduler);
      const events$ = m.cold('-a--f----|', EVENTS);
      const clientClose$ = m.hot('----------');
      const expected = 'RA--(TS)-(D|)';

      const { output$, interrupts } = runChatPipeline(scheduler, { events$, clientClose$, sink, operators: { events: [() => appendFooter(' -- rxgate')] } });
      m.expectObservable(output$).toBe(expected, FRAMES);
      m.flush();
      expect(interrupts).toEqual([]);
    });
  });

  it('lets a client that leaves before the finish interrupt the run at that frame, with no footer', () => {
    const scheduler = testScheduler();
    scheduler.run((m) => {
      const sink = new FakeSink(scheduler);
      const events$ = m.cold('-a----f|', EVENTS);
      const clientClose$ = m.hot('---x');
      const expected = 'RA-|';

      const { output$, interrupts } = runChatPipeline(scheduler, { events$, clientClose$, sink, operators: { events: [() => appendFooter(' -- rxgate')] } });
      m.expectObservable(output$).toBe(expected, FRAMES);
      m.flush();
      expect(interrupts).toEqual([{ reason: InterruptReason.clientDisconnected, frame: 3 }]);
    });
  });
});
