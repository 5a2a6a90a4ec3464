import { concatMap, filter, firstValueFrom, map, of, startWith, timeout } from 'rxjs';
import type { EventLog, LoggedEvent } from '../store/EventLog.js';

/**
 * Resolves true once log `id` ends with a terminal event, false if it has not within `withinMs`.
 * Listens before it looks, so an end stored in between is not missed.
 */
export function logEnded(log: EventLog, id: string, isTerminal: (event: LoggedEvent) => boolean, withinMs: number): Promise<boolean> {
  return firstValueFrom(
    log.appended$(id).pipe(
      startWith(undefined),
      concatMap(() => log.last(id)),
      filter((last) => last !== undefined && isTerminal(last)),
      map(() => true),
      timeout({ first: withinMs, with: () => of(false) }),
    ),
    { defaultValue: false },
  );
}
