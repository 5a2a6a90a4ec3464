import type { Response } from 'express';
import { map, type Observable } from 'rxjs';
import { Cancellation } from '../agent/cancellation.js';
import { loggedEventFrame, type LoggedEvent } from './loggedEvent.js';
import { clientClose$ } from '../pipeline/clientClose.js';
import { SSE_HEADERS } from '../sse/sseHeaders.js';
import { streamToClient } from '../http/streamToClient.js';

export interface StreamLoggedEventsOptions {
  readonly keepaliveMs: number;
  readonly maxBufferedBytes: number;
}

/**
 * Serves a detached run's events to one subscriber as SSE (`event: <type>`, `id: <seq>`), with
 * keepalives and the slow-client bound. The subscriber's own cancellation is not the run's:
 * a subscriber that leaves, or is cut off, ends only its own stream.
 */
export function streamLoggedEvents(res: Response, events$: Observable<LoggedEvent>, options: StreamLoggedEventsOptions): Promise<void> {
  res.writeHead(200, SSE_HEADERS);
  res.flushHeaders();
  const frames$ = events$.pipe(map(loggedEventFrame));
  return new Promise<void>((resolve) => {
    streamToClient(frames$, { ...options, sink: res, clientClose$: clientClose$(res), cancellation: new Cancellation() }).subscribe({
      complete: () => {
        res.end();
        resolve();
      },
      error: () => {
        res.destroy();
        resolve();
      },
    });
  });
}
