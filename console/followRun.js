import { ApiError, openEvents } from './api.js';
import { readSse } from './readSse.js';

export const TERMINAL = new Set(['run.completed', 'run.failed', 'run.cancelled']);

const RECONNECT_MS = 1000;

/** What a person is told while `followRun` tries again. */
export const couldNotFollow = (error) => `could not read the run's events: ${error.message}; trying again every second`;

const pause = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * Follows run `id`'s events after sequence number `after` (none: from its first) until its
 * terminal event. A dropped connection is opened again with `Last-Event-ID`, so `onEvent({ seq,
 * type, data })` sees every event once, in order. A failure the server may get over (a 5xx, a
 * 429, the network) is tried again every second for as long as the run is followed, and
 * `onFailure(error)` says so each time; `onFailure(undefined)` once the events are read again.
 * Resolves when the run has ended or `signal` aborts; a 4xx (but 429) throws.
 */
export async function followRun(id, { after, signal, onEvent, onFailure = () => undefined }) {
  let last = after;
  let failing = false;
  while (!signal.aborted) {
    try {
      const response = await openEvents(`/v1/runs/${encodeURIComponent(id)}/events`, { lastEventId: last, signal });
      if (failing) {
        failing = false;
        onFailure(undefined);
      }
      for await (const frame of readSse(response.body)) {
        const seq = Number(frame.id);
        if (last !== undefined && seq <= last) continue;
        last = seq;
        const data = JSON.parse(frame.data);
        const type = data.type ?? frame.event;
        onEvent({ seq, type, data });
        if (TERMINAL.has(type)) return;
      }
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof ApiError && error.status < 500 && error.status !== 429) throw error;
      failing = true;
      onFailure(error);
    }
    await pause(RECONNECT_MS, signal);
  }
}
