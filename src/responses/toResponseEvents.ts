import { catchError, concat, concatMap, defer, type OperatorFunction } from 'rxjs';
import type { AgentEvent } from '../agent/agentEvent.js';
import { ResponseDraft } from './ResponseDraft.js';
import type { ResponseMeta, ResponseStreamEvent } from './responseObject.js';

/**
 * Encodes agent events as Responses API stream events: `response.created` and
 * `response.in_progress` at subscription, a message item (with its content part and text deltas)
 * for each stretch of text, a `function_call` item for each tool the agent calls, and exactly one
 * terminal: `response.completed`, `response.incomplete` (a `length` finish) or `response.failed`
 * (the run errored; the stream then completes). Pass a `draft` to read a snapshot of a run that
 * was cut short.
 *
 * ```
 * source:   --t--t--|         --t--#
 * result:   (CP)-(AIT)--T--(XYZD|)   (CP)-(AIT)--(F|)
 * ```
 */
export function toResponseEvents(meta: ResponseMeta, draft?: ResponseDraft): OperatorFunction<AgentEvent, ResponseStreamEvent> {
  return (events$) =>
    defer(() => {
      const response = draft ?? new ResponseDraft(meta);
      return concat(
        defer(() => response.start()),
        events$.pipe(concatMap((event) => response.apply(event))),
        defer(() => response.complete()),
      ).pipe(catchError((error: unknown) => response.fail(error)));
    });
}
