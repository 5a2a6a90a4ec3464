import { concat, defer, EMPTY, filter, of, tap, type MonoTypeOperatorFunction } from 'rxjs';
import type { LoggedEvent } from '../store/EventLog.js';
import { ChatLogEvent } from './chatLog.js';

/**
 * The frames of a chat completion's log, for a duplicate request: each as the first request sent
 * it (its `[DONE]` or error frame included); a log that ends without its answer (the first
 * request's client left, or its instance died) ends with the frame `unfinished`.
 *
 * ```
 * log:      -f-g-e|      -f-r|       f, g = frames, e = end, r = released
 * result:   -f-g--|      -f--(u|)    u = unfinished
 * ```
 *
 * @example
 * followEvents(log, id, -1, options).pipe(replayChatFrames(toErrorFrame(retryError)))
 */
export function replayChatFrames(unfinished: string): MonoTypeOperatorFunction<LoggedEvent> {
  return (events$) =>
    defer(() => {
      let whole = false;
      return concat(
        events$.pipe(
          tap(({ type }) => (whole ||= type === ChatLogEvent.end)),
          filter(({ type }) => type === ChatLogEvent.frame),
        ),
        defer(() => (whole ? EMPTY : of<LoggedEvent>({ seq: -1, type: ChatLogEvent.frame, data: unfinished }))),
      );
    });
}
