import { asyncScheduler, connect, filter, merge, takeUntil, throttleTime, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs';

/** How often a tool's progress may reach the run: ten times a second. */
export const TOOL_PROGRESS_INTERVAL_MS = 100;

/**
 * At most one `tool_progress` of a call per `intervalMs`: the first at once, then the latest of
 * each interval (a tool, or an MCP server, may report progress thousands of times a second, and
 * every report would be a chunk, a logged run event, a write). Every other event passes as it
 * comes; `tool_end` drops the progress still waiting, since the end says more.
 *
 * ```
 * source:   s-ab-c-d----e|      s = tool_start, a..d = tool_progress, e = tool_end (intervalMs: 3 frames)
 * result:   s-a--c--d---e|
 * ```
 */
export function coalesceToolProgress<T extends { readonly type: string }>(
  intervalMs = TOOL_PROGRESS_INTERVAL_MS,
  scheduler: SchedulerLike = asyncScheduler,
): MonoTypeOperatorFunction<T> {
  return connect((events$) =>
    merge(
      events$.pipe(filter((event) => event.type !== 'tool_progress')),
      events$.pipe(
        filter((event) => event.type === 'tool_progress'),
        throttleTime(intervalMs, scheduler, { leading: true, trailing: true }),
        takeUntil(events$.pipe(filter((event) => event.type === 'tool_end'))),
      ),
    ),
  );
}
