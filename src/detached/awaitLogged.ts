import { concatMap, filter, firstValueFrom, of, startWith, timeout } from 'rxjs';
import type { EventLog, LoggedEvent } from '../store/EventLog.js';

const PAGE = 256;

/**
 * Resolves with the first event of log `id` that `match`es, stored already or within `withinMs`;
 * undefined if none came. Listens before it looks, so an event stored in between is not missed.
 */
export function awaitLogged(
  log: EventLog,
  id: string,
  match: (event: LoggedEvent) => boolean,
  withinMs: number,
): Promise<LoggedEvent | undefined> {
  let after = -1;
  const next = async (): Promise<LoggedEvent | undefined> => {
    for (;;) {
      const page = await log.read(id, after, PAGE);
      for (const event of page) {
        after = event.seq;
        if (match(event)) return event;
      }
      if (page.length < PAGE) return undefined;
    }
  };
  return firstValueFrom(
    log.appended$(id).pipe(
      startWith(undefined),
      concatMap(next),
      filter((event) => event !== undefined),
      timeout({ first: withinMs, with: () => of(undefined) }),
    ),
    { defaultValue: undefined },
  );
}
