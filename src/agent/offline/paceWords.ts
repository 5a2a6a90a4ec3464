import { asyncScheduler, concatMap, from, map, timer, type Observable, type SchedulerLike } from 'rxjs';
import type { AgentEventOf } from '../agentEvent.js';

/**
 * Streams `text` as text deltas, one word (with the space after it) every `delayMs`, as a
 * model streams tokens.
 *
 * ```
 * paceWords('a b c', 2)
 * result:   --a-b-(c|)
 * ```
 */
export function paceWords(text: string, delayMs: number, scheduler: SchedulerLike = asyncScheduler): Observable<AgentEventOf<'text'>> {
  const words = text.match(/\S+\s*/g) ?? [];
  return from(words).pipe(concatMap((word) => timer(delayMs, scheduler).pipe(map(() => ({ type: 'text' as const, delta: word })))));
}
