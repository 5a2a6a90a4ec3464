import type { FollowedLog } from '../detached/serveLoggedEvents.js';
import { UNTIL_TERMINAL } from '../detached/followEvents.js';
import { TERMINAL_RESPONSE_EVENTS } from '../openai/responseObject.js';
import type { ResponsesContext } from './responsesContext.js';

/** The event log of background response `id` (whose status is `status`) as a subscriber follows it from `after`. */
export function followedResponse(context: ResponsesContext, id: string, after: number, status?: string): FollowedLog {
  const unfinished = status === 'queued' || status === 'in_progress';
  const ended = context.detached.get(id, 'response')?.ended ?? (unfinished ? UNTIL_TERMINAL : undefined);
  return { id, after, ended, isTerminal: ({ type }) => TERMINAL_RESPONSE_EVENTS.has(type) };
}
