import { asyncScheduler, Observable, type SchedulerLike } from 'rxjs';
import type { AgentEventOf } from '../agentEvent.js';
import { coalesceToolProgress, TOOL_PROGRESS_INTERVAL_MS } from './coalesceToolProgress.js';
import { invokeTool } from './invokeTool.js';
import type { Tool, ToolProgress } from './tool.js';

export type ToolCallEvent = AgentEventOf<'tool_start'> | AgentEventOf<'tool_progress'> | AgentEventOf<'tool_end'>;

export interface ToolCallRequest {
  readonly callId: string;
  readonly name: string;
  readonly arguments: string;
  /** The W3C trace context headers of the call's span, handed to the tool. Default: none. */
  readonly traceHeaders?: Readonly<Record<string, string>>;
}

/**
 * One tool call as events: `tool_start` on subscription, `tool_progress` for the tool's progress
 * reports (at most one per `TOOL_PROGRESS_INTERVAL_MS`, the latest wins: `coalesceToolProgress`),
 * `tool_end` with the result or the error when it settles. Unsubscribing aborts the signal the
 * tool runs with, as does `runSignal`.
 *
 * ```
 * result:   s--p-p--(e|)        s = tool_start, p = tool_progress, e = tool_end
 * ```
 */
export function runToolCall(
  tool: Tool | undefined,
  call: ToolCallRequest,
  runSignal: AbortSignal,
  scheduler: SchedulerLike = asyncScheduler,
): Observable<ToolCallEvent> {
  const events$ = new Observable<ToolCallEvent>((subscriber) => {
    const controller = new AbortController();
    const signal = AbortSignal.any([runSignal, controller.signal]);
    const started = performance.now();
    const origin = tool?.origin ? { origin: tool.origin } : {};
    subscriber.next({ type: 'tool_start', callId: call.callId, name: call.name, arguments: call.arguments, ...origin });
    const onProgress = ({ progress, total, message }: ToolProgress) => {
      if (signal.aborted) return;
      subscriber.next({
        type: 'tool_progress',
        callId: call.callId,
        name: call.name,
        progress,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      });
    };
    void invokeTool(tool, call.name, call.arguments, signal, onProgress, call.traceHeaders).then((outcome) => {
      // An aborted tool's outcome has no reader: the run that asked for it is gone.
      if (signal.aborted) return;
      const durationMs = Math.round(performance.now() - started);
      subscriber.next({ type: 'tool_end', callId: call.callId, name: call.name, ...outcome, durationMs });
      subscriber.complete();
    });
    return () => controller.abort(new Error(`tool ${call.name} cancelled`));
  });
  return events$.pipe(coalesceToolProgress(TOOL_PROGRESS_INTERVAL_MS, scheduler));
}
