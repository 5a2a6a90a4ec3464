import type { Observable } from 'rxjs';
import { concatMap } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { UpstreamPost } from '../../src/upstream/UpstreamPost.js';
import type { UpstreamChunk } from '../../src/upstream/upstreamChunk.js';
import { createModelCaller } from '../../src/upstream/createModelCaller.js';
import type { Routes, Upstream } from '../../src/upstream/routes.js';
import { singleRoute } from '../../src/upstream/singleRoute.js';
import { UpstreamError } from '../../src/errors/UpstreamError.js';
import { UpstreamsExhaustedError } from '../../src/errors/UpstreamsExhaustedError.js';
import { marbles } from '../support/marbles.js';

const content: UpstreamChunk = { choices: [{ delta: { content: 'hi' }, finish_reason: null }] };
/** What a role chunk reads as: no content. */
const role: UpstreamChunk = { choices: [{ delta: { content: '' }, finish_reason: null }] };
const values = { c: content, r: role };
const rateLimited = (retryAfterMs?: number) => new UpstreamError('rate_limited', 'is rate limiting requests (HTTP 429)', 429, { retryAfterMs });
const unavailable = new UpstreamError('bad_status', 'answered HTTP 503', 503);

function upstream(id: string): Upstream {
  const timeouts = { connectMs: 1000, firstByteMs: 1000, firstContentMs: 5000, idleMs: 1000 };
  return { id, kind: 'openai', url: `http://${id}/v1`, weight: 1, maxInFlight: 10, timeouts };
}

/** `smart` goes to main then backup; main alone has one more try than the others. */
function routes(overrides: Partial<Routes> = {}, targets = ['main', 'backup']): Routes {
  return {
    upstreams: new Map(['main', 'backup'].map((id) => [id, upstream(id)])),
    models: new Map([
      ['smart', { name: 'smart', targets: targets.map((id) => ({ upstream: id, model: `${id}-model` })), balance: 'ordered', fallbacks: [], contextWindowFallbacks: [] }],
    ]),
    retry: { attempts: 2, baseMs: 250, capMs: 8000, maxRetryAfterMs: 30_000 },
    budget: { deadlineMs: 90_000, maxAttempts: 6 },
    breaker: { failures: 3, cooldownMs: 30_000 },
    ...overrides,
  };
}

/** A fake `open` that plays, per upstream, the next of its scripted attempts, and logs when each was opened. */
function scripted(now: () => number, scripts: Record<string, Observable<UpstreamChunk>[]>) {
  const opened: string[] = [];
  const open$ = (post: UpstreamPost) => {
    const id = new URL(post.endpoint.origin).hostname;
    opened.push(`${now()}:${id}`);
    return scripts[id]!.shift()!;
  };
  return { open$, opened };
}

const call = { route: 'smart', bodyFor: ({ model }: { model: string }) => ({ model }), signal: new AbortController().signal };

describe('createModelCaller', () => {
  it('waits out a Retry-After (2 s) that is longer than the backoff before the same target\'s second attempt', marbles((m) => {
    const { open$, opened } = scripted(() => m.scheduler.now(), {
      main: [m.cold('-#', undefined, rateLimited(2000)), m.cold('-(c|)', values)],
    });
    const caller = createModelCaller(routes({}, ['main']), { open: open$, scheduler: m.scheduler, random: () => 0.99 });
    const expected = '2002ms (c|)';

    m.expect(caller.call(call)).toBeObservable(expected, values);
    m.flush();
    expect(opened).toEqual(['0:main', '2001:main']);
  }));

  it('honours the Retry-After of every answer, not only the first', marbles((m) => {
    const { open$, opened } = scripted(() => m.scheduler.now(), {
      main: [m.cold('-#', undefined, rateLimited(1000)), m.cold('-#', undefined, rateLimited(3000)), m.cold('-(c|)', values)],
    });
    const caller = createModelCaller(routes({ retry: { attempts: 3, baseMs: 1, capMs: 1, maxRetryAfterMs: 30_000 } }, ['main']), {
      open: open$,
      scheduler: m.scheduler,
      random: () => 0,
    });

    m.expect(caller.call(call)).toBeObservable('4003ms (c|)', values);
    m.flush();
    expect(opened).toEqual(['0:main', '1001:main', '4002:main']);
  }));

  it('goes to another healthy target at once, without a wait, and passes the role chunk of the failed one only once', marbles((m) => {
    const { open$, opened } = scripted(() => m.scheduler.now(), {
      main: [m.cold('r-#', values, unavailable)],
      backup: [m.cold('-c|', values)],
    });
    const caller = createModelCaller(routes(), { open: open$, scheduler: m.scheduler, random: () => 0.5 });

    m.expect(caller.call(call)).toBeObservable('r--c|', values);
    m.flush();
    expect(opened).toEqual(['0:main', '2:backup']);
  }));

  it('ends a wait at once when the client leaves: no further upstream request', marbles((m) => {
    const second$ = m.cold('-(c|)', values);
    const { open$, opened } = scripted(() => m.scheduler.now(), { main: [m.cold('-#', undefined, rateLimited(2000)), second$] });
    const caller = createModelCaller(routes({}, ['main']), { open: open$, scheduler: m.scheduler });
    const unsub = '500ms !';

    m.expect(caller.call(call), unsub).toBeObservable('', values);
    m.expect(second$).toHaveSubscriptions([]);
    m.flush();
    expect(opened).toEqual(['0:main']);
    expect(m.scheduler.frame).toBe(500);
  }));

  it('skips a target whose Retry-After is above maxRetryAfterMs instead of waiting, and says when to come back', marbles((m) => {
    const { open$, opened } = scripted(() => m.scheduler.now(), {
      main: [m.cold('-#', undefined, rateLimited(60_000))],
      backup: [m.cold('-#', undefined, rateLimited(40_000))],
    });
    const caller = createModelCaller(routes(), { open: open$, scheduler: m.scheduler });
    const error = new UpstreamsExhaustedError(rateLimited(40_000), 2, 40_000);

    m.expect(caller.call(call)).toBeObservable('--#', undefined, error);
    m.flush();
    expect(opened).toEqual(['0:main', '1:backup']);
  }));

  it('never retries after the commit point', marbles((m) => {
    const { open$, opened } = scripted(() => m.scheduler.now(), { main: [m.cold('-c-#', values, unavailable)], backup: [] });
    const caller = createModelCaller(routes(), { open: open$, scheduler: m.scheduler });

    m.expect(caller.call(call)).toBeObservable('-c-#', values, unavailable);
    m.flush();
    expect(opened).toEqual(['0:main']);
  }));

  it('bounds a persistent 429 by the budget: attempts, and time with the waits', marbles((m) => {
    const always$ = () => m.cold('-#', undefined, rateLimited(1000));
    const { open$, opened } = scripted(() => m.scheduler.now(), { main: Array.from({ length: 10 }, always$), backup: Array.from({ length: 10 }, always$) });
    const caller = createModelCaller(routes({ retry: { attempts: 10, baseMs: 1, capMs: 1, maxRetryAfterMs: 30_000 }, budget: { deadlineMs: 2500, maxAttempts: 10 } }), {
      open: open$,
      scheduler: m.scheduler,
      random: () => 0,
    });

    caller.call(call).subscribe({ error: () => undefined });
    m.flush();
    // Two at once, then each target once a second, until a wait would end past the 2.5 s deadline.
    expect(opened).toEqual(['0:main', '1:backup', '1001:main', '1002:backup', '2002:main', '2003:backup']);
  }));

  it('makes no attempt once the budget\'s deadline has passed', marbles((m) => {
    const { open$, opened } = scripted(() => m.scheduler.now(), {
      main: [m.cold('-'), m.cold('--(c|)', values)],
      backup: [m.cold('--(c|)', values), m.cold('--(c|)', values)],
    });
    const caller = createModelCaller(routes({ budget: { deadlineMs: 100, maxAttempts: 6 } }), { open: open$, scheduler: m.scheduler, random: () => 0 });
    const timedOut = new UpstreamError('first_token_timeout', 'sent no token within 100 ms (firstContentMs)');

    // The budget cuts main's wait for content to 100 ms; past it, an attempt could only be cut at once.
    m.expect(caller.call(call)).toBeObservable('100ms #', undefined, timedOut);
    m.flush();
    expect(opened).toEqual(['0:main']);
  }));

  it('opens a breaker after `failures` failures, skips its upstream during the cooldown, then sends one trial that closes it', marbles((m) => {
    const fail$ = () => m.cold('-#', undefined, unavailable);
    const answer$ = () => m.cold('-(c|)', values);
    const { open$, opened } = scripted(() => m.scheduler.now(), {
      main: [fail$(), fail$(), answer$(), answer$()],
      backup: [answer$(), answer$(), answer$()],
    });
    const caller = createModelCaller(routes({ retry: { attempts: 1, baseMs: 1, capMs: 1, maxRetryAfterMs: 0 }, breaker: { failures: 2, cooldownMs: 100 } }), {
      open: open$,
      scheduler: m.scheduler,
    });
    const calls$ = m.cold('a 9ms b 9ms c 99ms d 9ms e|').pipe(concatMap(() => caller.call(call)));

    calls$.subscribe();
    m.flush();
    expect(opened).toEqual([
      '0:main', '1:backup', // failure 1
      '10:main', '11:backup', // failure 2: open until 111
      '20:backup', // open: main skipped
      '120:main', // half open: the trial, which succeeds
      '130:main', // closed again
    ]);
  }));

  it('asks again once a wait is over whether its target may take the attempt: none goes to an upstream whose breaker opened meanwhile', marbles((m) => {
    const fail$ = () => m.cold('-#', undefined, unavailable);
    const { open$, opened } = scripted(() => m.scheduler.now(), { main: [fail$(), fail$(), m.cold('-(c|)', values)] });
    const caller = createModelCaller(routes({ breaker: { failures: 2, cooldownMs: 30_000 } }, ['main']), {
      open: open$,
      scheduler: m.scheduler,
      random: () => 0.99,
    });

    // Both fail at 1: the first waits 247 ms to try again, the second opens the breaker for 30 s.
    m.expect(caller.call(call)).toBeObservable('248ms #', undefined, unavailable);
    m.expect(caller.call(call)).toBeObservable('-#', undefined, unavailable);
    m.flush();
    expect(opened).toEqual(['0:main', '0:main']);
  }));

  it('lets one trial through a half-open breaker, even when a call begun before it opened is cancelled meanwhile', marbles((m) => {
    const { open$, opened } = scripted(() => m.scheduler.now(), {
      main: [m.cold('-c', values), m.cold('-#', undefined, unavailable), m.cold('-'), m.cold('-')],
    });
    const caller = createModelCaller(routes({ retry: { attempts: 1, baseMs: 1, capMs: 1, maxRetryAfterMs: 0 }, breaker: { failures: 1, cooldownMs: 100 } }, ['main']), {
      open: open$,
      scheduler: m.scheduler,
    });
    const at = (frame: number, work: () => void) => m.scheduler.schedule(work, frame);
    const quiet = { error: () => undefined };

    // A long answer, then a failure that opens the breaker until 111, then the trial at 120.
    const long = caller.call(call).subscribe(quiet);
    at(10, () => caller.call(call).subscribe(quiet));
    at(120, () => caller.call(call).subscribe(quiet));
    // The long answer's client leaves while the trial is out: no second trial follows.
    at(130, () => long.unsubscribe());
    at(140, () => caller.call(call).subscribe(quiet));
    m.flush();
    expect(opened).toEqual(['0:main', '10:main', '120:main']);
  }));

  it('has no breaker with the one route of RXGATE_UPSTREAM_*: a 401 does not leave it taking one call at a time', marbles((m) => {
    const unauthorized = new UpstreamError('unauthorized', 'refused the request with HTTP 401', 401);
    const { open$, opened } = scripted(() => m.scheduler.now(), {
      main: [m.cold('-#', undefined, unauthorized), m.cold('--(c|)', values), m.cold('-(c|)', values)],
    });
    const timeouts = { connectMs: 1000, firstByteMs: 1000, firstContentMs: 5000, idleMs: 1000 };
    const caller = createModelCaller(singleRoute({ url: 'http://main/v1', model: 'm', timeouts }), { open: open$, scheduler: m.scheduler });

    m.expect(caller.call(call)).toBeObservable('-#', undefined, unauthorized);
    m.expect(caller.call(call), '10ms ^').toBeObservable('12ms (c|)', values);
    m.expect(caller.call(call), '10ms ^').toBeObservable('11ms (c|)', values);
    m.flush();
    expect(opened).toEqual(['0:main', '10:main', '10:main']);
  }));

  it('fails the call with what an attempt observer threw, as a tap would, instead of letting it escape', marbles((m) => {
    const { open$ } = scripted(() => m.scheduler.now(), { main: [m.cold('-c-|', values)] });
    const caller = createModelCaller(routes({}, ['main']), { open: open$, scheduler: m.scheduler });
    const faulty = {
      attemptStarted: () => undefined,
      attemptEnded: () => {
        throw new Error('observer broke');
      },
    };
    const expected = '-c-#';

    m.expect(caller.call({ ...call, observer: faulty })).toBeObservable(expected, values, new Error('observer broke'));
  }));
});
