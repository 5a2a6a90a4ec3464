import { catchError, map, NEVER, Subject, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agentEvent.js';
import { InterruptReason } from '../../src/agent/interruptReason.js';
import { ResponseDraft } from '../../src/responses/ResponseDraft.js';
import { answerInOrder } from '../../src/responses/socket/answerInOrder.js';
import { generated$ } from '../../src/responses/socket/generated.js';
import { toResponseEvents } from '../../src/responses/toResponseEvents.js';
import { FakeSink, runResponsePipeline, TEST_RESPONSE_META } from '../../src/testing.js';
import { EVENTS } from '../support/chatFrames.js';
import { marbles } from '../support/marbles.js';

// A Responses WebSocket connection's timing (`ResponsesConnection`): its response.create events
// answered one at a time, a closed socket interrupting the response in flight at that frame (and
// dropping what waits), and generate: false calling no model.

/** An SSE frame as its event type, and the delta it carries if any. */
function frameSummary(frame: string): string {
  const event = JSON.parse(frame.slice(frame.indexOf('data: ') + 6)) as { type: string; delta?: string };
  return event.delta === undefined ? event.type : `${event.type} ${event.delta}`;
}

const eventSummary = (event: { type: string; delta?: unknown }): string =>
  event.delta === undefined ? event.type : `${event.type} ${String(event.delta)}`;

const SUMMARIES = {
  P: 'response.created',
  Q: 'response.in_progress',
  O: 'response.output_item.added',
  C: 'response.content_part.added',
  A: 'response.output_text.delta a',
  B: 'response.output_text.delta b',
  T: 'response.output_text.done',
  U: 'response.content_part.done',
  V: 'response.output_item.done',
  X: 'response.completed',
};

describe('a Responses WebSocket connection', () => {
  it('answers two response.create events in order of arrival, the second once the first is over', marbles((m) => {
    const runs: Record<string, Observable<AgentEvent>> = {
      a: m.cold('10ms a 9ms |', EVENTS),
      b: m.cold('10ms b 9ms |', EVENTS),
    };
    const creates$ = m.hot('1ms a 1ms b');
    const aSubs =          '1ms ^ 19ms !';
    const bSubs =          '21ms ^ 19ms !';
    const expected =       '1ms (PQ) 6ms (OCA) 5ms (TUVXPQ) 2ms (OCB) 5ms (TUVX)';

    const answer$ = (event: string) => runs[event]!.pipe(toResponseEvents(new ResponseDraft(TEST_RESPONSE_META)));
    m.expect(creates$.pipe(answerInOrder(answer$, NEVER), map(eventSummary))).toBeObservable(expected, SUMMARIES);
    m.expect(runs.a!).toHaveSubscriptions(aSubs);
    m.expect(runs.b!).toHaveSubscriptions(bSubs);
  }));

  it('interrupts the response in flight at the frame its socket closes, and never starts the one that waits', marbles((m) => {
    const sink = new FakeSink(m.scheduler);
    const closed$ = new Subject<void>();
    const runs: Record<string, Observable<AgentEvent>> = {
      a: m.cold('10ms a 9ms |', EVENTS),
      b: m.cold('10ms b 9ms |', EVENTS),
    };
    const creates$ = m.hot('1ms a 1ms b');
    const aSubs =          '1ms ^ 14ms !';
    const expected =       '1ms (PQ) 6ms (OCA) |';
    // The socket's 'close' reaches the sink's writer first, then the connection (as `ResponsesConnection` listens).
    m.scheduler.schedule(() => {
      sink.emit('close');
      closed$.next();
    }, 16);

    const pipelines = new Map<string, ReturnType<typeof runResponsePipeline>>();
    const answer$ = (event: string) => {
      const pipeline = runResponsePipeline(m.scheduler, { events$: runs[event]!, clientClose$: NEVER, sink, keepaliveMs: 60_000 });
      pipelines.set(event, pipeline);
      return pipeline.output$.pipe(catchError(() => NEVER));
    };
    m.expect(creates$.pipe(answerInOrder(answer$, closed$), map(frameSummary))).toBeObservable(expected, SUMMARIES);
    m.expect(runs.a!).toHaveSubscriptions(aSubs);
    m.expect(runs.b!).toHaveSubscriptions([]);
    m.flush();

    expect(pipelines.get('a')!.interrupts).toEqual([{ reason: InterruptReason.clientDisconnected, frame: 16 }]);
    expect(pipelines.get('a')!.aborts).toEqual([16]);
    expect(pipelines.has('b')).toBe(false);
  }));

  it('calls no model for generate: false, and answers with an empty completed response at once', marbles((m) => {
    const model$ =   m.cold('10ms a 9ms |', EVENTS);
    const expected =        '(PQX|)';

    const answered$ = generated$(false, () => model$).pipe(toResponseEvents(new ResponseDraft(TEST_RESPONSE_META)), map(eventSummary));
    m.expect(answered$).toBeObservable(expected, SUMMARIES);
    m.expect(model$).toHaveSubscriptions([]);
  }));

  it('runs the model when generate is true', marbles((m) => {
    const model$ =   m.cold('10ms a 9ms |', EVENTS);
    const modelSubs =       '^ 19ms !';
    const expected =        '(PQ) 6ms (OCA) 5ms (TUVX|)';

    const answered$ = generated$(true, () => model$).pipe(toResponseEvents(new ResponseDraft(TEST_RESPONSE_META)), map(eventSummary));
    m.expect(answered$).toBeObservable(expected, SUMMARIES);
    m.expect(model$).toHaveSubscriptions(modelSubs);
  }));
});
