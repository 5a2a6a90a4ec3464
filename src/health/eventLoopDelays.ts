import { Observable } from 'rxjs';

/**
 * Every `periodMs`, how many ms later than asked a timer fired: the event loop's delay, as a
 * process under load makes its callbacks wait. The timer is unref'd: sampling never keeps a
 * process alive.
 */
export function eventLoopDelays(periodMs: number): Observable<number> {
  return new Observable<number>((subscriber) => {
    let due = performance.now() + periodMs;
    const timer = setInterval(() => {
      const firedAt = performance.now();
      subscriber.next(Math.max(0, firedAt - due));
      due = firedAt + periodMs;
    }, periodMs);
    timer.unref();
    return () => clearInterval(timer);
  });
}
