import type { FollowedLog } from '../detached/serveLoggedEvents.js';
import { endedElsewhere } from '../detached/stopDetached.js';
import { TERMINAL_RESPONSE_EVENTS } from './responseObject.js';
import type { ResponsesContext } from './responsesContext.js';

/** The event log of background response `id` (whose status is `status`) as a subscriber follows it from `after`. */
export function followedResponse(context: ResponsesContext, id: string, after: number, status?: string): FollowedLog {
  const ended = context.detached.get(id, 'response')?.ended ?? endedElsewhere(status === 'queued' || status === 'in_progress');
  return { id, after, ended, isTerminal: ({ type }) => TERMINAL_RESPONSE_EVENTS.has(type) };
}
