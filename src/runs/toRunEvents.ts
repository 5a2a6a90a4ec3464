import { catchError, concat, defer, filter, map, of, type OperatorFunction } from 'rxjs';
import type { AgentEvent } from '../agent/agentEvent.js';
import { sumUsage, ZERO_USAGE } from '../agent/sumUsage.js';
import { toApprovalResolved } from './approvalResolved.js';
import { toRunError } from './runError.js';
import { toRunUsage, type RunEvent } from './runEvent.js';

/**
 * Encodes agent events as run events: `message.delta` per text delta, `refusal.delta` per refusal delta, `reasoning.delta` per
 * reasoning delta, `tool.started` and `tool.completed` per tool call (and `tool.progress` as an MCP tool reports it), `approval.required` and
 * `approval.resolved` per call that waits for a person, `run.steered` per steer taken, then `run.completed` with the whole output (and refusal) and summed usage, or
 * `run.failed` with the error (the stream then completes). Usage events leave no event of their
 * own.
 *
 * ```
 * source:   --t--r--s--e--u--|      --t--#
 * result:   --D--E--S--C-----(R|)   --D--(F|)
 * ```
 */
export function toRunEvents(): OperatorFunction<AgentEvent, RunEvent> {
  return (events$) =>
    defer(() => {
      let output = '';
      let refusal: string | null = null;
      let usage = ZERO_USAGE;
      // One event makes at most one run event: map and filter, no inner Observable per delta.
      function encode(event: AgentEvent): RunEvent | undefined {
        switch (event.type) {
          case 'text':
            if (event.delta === '') return undefined;
            output += event.delta;
            return { type: 'message.delta', delta: event.delta };
          case 'refusal':
            if (event.delta === '') return undefined;
            refusal = (refusal ?? '') + event.delta;
            return { type: 'refusal.delta', delta: event.delta };
          case 'reasoning':
            return event.delta === '' ? undefined : { type: 'reasoning.delta', delta: event.delta };
          case 'tool_start':
            return { type: 'tool.started', call_id: event.callId, name: event.name, arguments: event.arguments };
          case 'tool_progress': {
            const { callId, name, progress, total, message } = event;
            return {
              type: 'tool.progress',
              call_id: callId,
              name,
              progress,
              ...(total === undefined ? {} : { total }),
              ...(message === undefined ? {} : { message }),
            };
          }
          case 'tool_end': {
            const outcome = event.error === undefined ? { result: event.result ?? '' } : { error: event.error };
            return { type: 'tool.completed', call_id: event.callId, name: event.name, ...outcome, duration_ms: event.durationMs };
          }
          case 'approval_required':
            return {
              type: 'approval.required',
              approval_id: event.approvalId,
              call_id: event.callId,
              tool: event.name,
              arguments: event.arguments,
              expires_at: Math.ceil((event.expiresAt ?? 0) / 1000),
            };
          case 'approval_resolved':
            return toApprovalResolved(event);
          case 'steered':
            return { type: 'run.steered', input: event.input };
          case 'usage':
            usage = sumUsage(usage, event.usage);
            return undefined;
          default:
            return undefined;
        }
      }
      return concat(
        events$.pipe(
          map(encode),
          filter((event) => event !== undefined),
        ),
        defer(() => of<RunEvent>({ type: 'run.completed', output, refusal, usage: toRunUsage(usage) })),
      ).pipe(
        catchError((error: unknown) => {
          return of<RunEvent>({ type: 'run.failed', error: toRunError(error) });
        }),
      );
    });
}
