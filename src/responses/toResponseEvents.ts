import { catchError, concat, concatMap, defer, type OperatorFunction } from 'rxjs';
import type { AgentEvent } from '../agent/agentEvent.js';
import { sequenceToolCalls } from '../agent/sequenceToolCalls.js';
import type { ResponseDraft } from './ResponseDraft.js';
import type { ResponseStreamEvent } from '../openai/responseObject.js';

/**
 * Encodes agent events as Responses API stream events: `response.created` and
 * `response.in_progress` at subscription, a message item (with its content part and text deltas)
 * for each stretch of text, a reasoning item for each stretch of reasoning, an `mcp_call` item
 * for each tool the agent runs itself, a `function_call` item for each call of a client tool (one
 * call after the other, `sequenceToolCalls`), and exactly one terminal: `response.completed`, `response.incomplete` (a `length` or `content_filter` finish) or `response.failed`
 * (the run errored; the stream then completes). The `draft` keeps the response as it stands, for
 * a snapshot of a run that was cut short.
 *
 * ```
 * source:   --t--t--|         --t--#
 * result:   (CP)-(AIT)--T--(XYZD|)   (CP)-(AIT)--(F|)
 * ```
 */
export function toResponseEvents(draft: ResponseDraft): OperatorFunction<AgentEvent, ResponseStreamEvent> {
  return (events$) =>
    concat(
      defer(() => draft.start()),
      events$.pipe(
        sequenceToolCalls(),
        concatMap((event) => draft.apply(event)),
      ),
      defer(() => draft.complete()),
    ).pipe(catchError((error: unknown) => draft.fail(error)));
}
