import { tap } from 'rxjs';
import { describe, it } from 'vitest';
import type { AttemptInfo } from '../../src/upstream/AttemptObserver.js';
import type { RunEvent } from '../../src/runs/runEvent.js';
import { withUpstreamEvents } from '../../src/runs/withUpstreamEvents.js';
import { marbles } from '../support/marbles.js';

const EVENTS: Record<string, RunEvent> = {
  a: { type: 'message.delta', delta: 'one' },
  b: { type: 'message.delta', delta: 'two' },
  c: { type: 'run.completed', output: 'onetwo', refusal: null, usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 } },
};
const attempt = (upstream: string, model: string): AttemptInfo => ({ requested: 'smart', route: 'smart', upstream, model, attempt: 1, waitedMs: 0 });

describe('withUpstreamEvents', () => {
  it('puts run.upstream just before the content that committed each model call, naming who answered it', marbles((m) => {
    const source$ =  m.cold('--a-----b-----c|', EVENTS);
    const expected =        '--(Ua)--(Vb)--c|';
    // The upstream layer calls the observer as the first content of a model call passes: here `a` (backup's) and `b` (main's).
    const commits = new Map([[EVENTS.a, attempt('backup', 'backup-model')], [EVENTS.b, attempt('main', 'main-model')]]);

    const result$ = withUpstreamEvents((observer) =>
      source$.pipe(tap((event) => commits.has(event) && observer.attemptCommitted!(commits.get(event)!))),
    );
    m.expect<unknown>(result$).toBeObservable(expected, {
      ...EVENTS,
      U: { type: 'run.upstream', upstream: 'backup', model: 'backup-model', route: 'smart' },
      V: { type: 'run.upstream', upstream: 'main', model: 'main-model', route: 'smart' },
    });
  }));

  it('adds nothing when no attempt commits (an agent without upstreams), and completes with the run', marbles((m) => {
    const source$ =  m.cold('--a--c|', EVENTS);
    const expected =        '--a--c|';

    m.expect<unknown>(withUpstreamEvents(() => source$)).toBeObservable(expected, EVENTS);
  }));

  it('ends when the run is unsubscribed', marbles((m) => {
    const source$ =  m.cold('--a-----b|', EVENTS);
    const sourceSubs =      '^----!';
    const unsub =           '-----!';
    const expected =        '--a---';

    m.expect<unknown>(withUpstreamEvents(() => source$), unsub).toBeObservable(expected, EVENTS);
    m.expect(source$).toHaveSubscriptions(sourceSubs);
  }));
});
