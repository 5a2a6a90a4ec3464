import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import type { AgentEvent, AgentEventOf } from '../agent/agentEvent.js';

/**
 * Makes the pieces of each client tool call contiguous, as OpenAI streams parallel calls: the
 * first call's pieces pass through as they arrive, and the pieces of the others are held until
 * the run finishes, then released call by call in `index` order, before the finish. A model may
 * interleave its calls, but clients read a new `index` as the end of the previous call (the
 * official SDK's stream helper parses a strict tool's arguments right then). Every other event
 * passes through untouched.
 *
 * ```
 * source:   -a-c-a-b-t-f-----|       a/b/c = pieces of client calls 0, 1 and 2, t = text, f = finish
 * result:   -a---a---t-(bcf)-|
 * ```
 */
export function sequenceToolCalls(): MonoTypeOperatorFunction<AgentEvent> {
  return (events$) =>
    new Observable<AgentEvent>((subscriber) => {
      let live: number | undefined;
      const held = new Map<number, AgentEventOf<'tool_call_delta'>[]>();
      const holds = (event: AgentEvent): boolean => {
        if (event.type !== 'tool_call_delta') return false;
        live ??= event.index;
        if (event.index === live) return false;
        const pieces = held.get(event.index);
        if (pieces) pieces.push(event);
        else held.set(event.index, [event]);
        return true;
      };
      const release = (): AgentEvent[] => {
        const pieces = [...held.entries()].sort(([a], [b]) => a - b).flatMap(([, calls]) => calls);
        held.clear();
        return pieces;
      };
      const releaseHeld = () => {
        for (const piece of release()) subscriber.next(piece);
      };
      // One subscriber: text deltas, the hot path, pass straight through.
      return events$.subscribe({
        next: (event) => {
          if (event.type === 'finish') releaseHeld();
          if (!holds(event)) subscriber.next(event);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          releaseHeld();
          subscriber.complete();
        },
      });
    });
}
