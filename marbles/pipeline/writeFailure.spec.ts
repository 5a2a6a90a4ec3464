import { describe, expect, it } from 'vitest';
import { InterruptReason } from '../../src/agent/interruptReason.js';
import { ClientGoneError } from '../../src/errors/ClientGoneError.js';
import { EVENTS, FRAMES } from '../support/chatFrames.js';
import { marbles } from '../support/marbles.js';
import { FakeSink, runChatPipeline } from '../../src/testing.js';

describe('a failed write', () => {
  for (const code of ['EPIPE', 'ECONNRESET']) {
    it(`cancels the run at the frame a write fails with ${code}, as a disconnect`, marbles((m) => {
      const sink = new FakeSink(m.scheduler, { failFrom: { frame: 3, code } });
      const events$ =      m.cold('-a-b-c-|', EVENTS);
      const eventsSubs =          '^--!';
      const clientClose$ = m.hot( '--------');
      const expected =            'RA-(B#)';

      const { output$, interrupts, aborts } = runChatPipeline(m.scheduler, { events$, clientClose$, sink });
      m.expect(output$).toBeObservable(expected, FRAMES, expect.objectContaining({ name: ClientGoneError.name }));
      m.expect(events$).toHaveSubscriptions(eventsSubs);
      m.flush();

      expect(interrupts).toEqual([{ reason: InterruptReason.clientDisconnected, frame: 3 }]);
      expect(aborts).toEqual([3]);
    }));
  }
});
