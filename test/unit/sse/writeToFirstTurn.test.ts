import { asapScheduler, Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Cancellation } from '../../../src/agent/cancellation.js';
import { writeTo } from '../../../src/sse/writeTo.js';
import { FakeSink } from '../../../src/testing.js';

const checkPhase = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

// Real event-loop phases, not virtual time: marbles/sse/writeTo.spec.ts fixes the turns themselves.
describe('writeTo with its default scheduler', () => {
  it('writes the first turn after the check-phase work its subscription set going (undici writes a request on a reused connection there)', async () => {
    const sink = new FakeSink(asapScheduler);
    const order: string[] = [];
    const frames$ = new Observable<string>((subscriber) => {
      subscriber.next('data: role\n\n');
      setImmediate(() => order.push(`upstream request sent, ${sink.writes.length} writes before`));
      queueMicrotask(() => subscriber.next('data: a\n\n'));
    });

    frames$.pipe(writeTo(sink, { cancellation: new Cancellation() })).subscribe();
    await checkPhase();
    await checkPhase();

    expect(order).toEqual(['upstream request sent, 0 writes before']);
    expect(sink.writes.map((write) => write.chunk)).toEqual(['data: role\n\ndata: a\n\n']);
  });

  it('writes every later turn in the turn it ends, and the first at once when the source completes', async () => {
    const sink = new FakeSink(asapScheduler);
    let emit = (_frame: string): void => undefined;
    const frames$ = new Observable<string>((subscriber) => {
      subscriber.next('data: role\n\n');
      emit = (frame) => subscriber.next(frame);
    });
    frames$.pipe(writeTo(sink, { cancellation: new Cancellation() })).subscribe();
    await checkPhase();
    await checkPhase();
    emit('data: b\n\n');
    await Promise.resolve();
    expect(sink.writes.map((write) => write.chunk)).toEqual(['data: role\n\n', 'data: b\n\n']);

    const ended = new FakeSink(asapScheduler);
    const completed: string[] = [];
    new Observable<string>((subscriber) => {
      subscriber.next('data: only\n\n');
      subscriber.complete();
    })
      .pipe(writeTo(ended, { cancellation: new Cancellation() }))
      .subscribe({ complete: () => completed.push(`completed after ${ended.writes.length} write`) });
    expect(completed).toEqual(['completed after 1 write']);
  });
});
