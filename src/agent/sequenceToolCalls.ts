import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import type { AgentEvent } from './agentEvent.js';
import { ToolCallSequence } from './ToolCallSequence.js';

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
      const sequence = new ToolCallSequence();
      const releaseHeld = () => {
        for (const piece of sequence.release()) subscriber.next(piece);
      };
      // One subscriber: text deltas, the hot path, pass straight through.
      return events$.subscribe({
        next: (event) => {
          if (event.type === 'finish') releaseHeld();
          if (!sequence.holds(event)) subscriber.next(event);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          releaseHeld();
          subscriber.complete();
        },
      });
    });
}
