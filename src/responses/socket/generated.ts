import { defer, EMPTY, type Observable } from 'rxjs';
import type { AgentEvent } from '../../agent/agentEvent.js';

/**
 * The agent's run of a `response.create`, or, for `generate: false` (Codex's warm-up), nothing: no
 * model is called, and the encoder answers with `response.created`, `response.in_progress` and an
 * empty `response.completed` at once, a response id to chain from.
 *
 * ```
 * generate true:   run$:  --a--|   result: --a--|
 * generate false:  run$:  (never subscribed)   result: |
 * ```
 */
export function generated$(generate: boolean, run$: () => Observable<AgentEvent>): Observable<AgentEvent> {
  return generate ? defer(run$) : EMPTY;
}
