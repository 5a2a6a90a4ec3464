import { defer, merge, Subject, tap, type Observable } from 'rxjs';
import type { AttemptObserver } from '../upstream/AttemptObserver.js';
import type { RunEvent } from './runEvent.js';

/**
 * The run events of `run$`, with a `run.upstream` just before the first content of each model
 * call, naming the upstream and the upstream's model that answered it (after a failover, the
 * backup's). `run$` gets the observer to hand the agent; the upstream layer calls it at the
 * commit point, synchronously, so the event goes out ahead of the content that committed.
 *
 * ```
 * run$:     --D--D-----C--|      D = message.delta, C = run.completed; the first D commits
 * result:   --(UD)--D--C--|      U = run.upstream
 * ```
 */
export function withUpstreamEvents(run$: (observer: AttemptObserver) => Observable<RunEvent>): Observable<RunEvent> {
  return defer(() => {
    const answered$ = new Subject<RunEvent>();
    const observer: AttemptObserver = {
      attemptStarted: () => undefined,
      attemptEnded: () => undefined,
      attemptCommitted: ({ upstream, model, route }) => answered$.next({ type: 'run.upstream', upstream, model, route }),
    };
    return merge(answered$, run$(observer).pipe(tap({ complete: () => answered$.complete() })));
  });
}
