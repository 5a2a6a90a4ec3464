import { expect } from 'vitest';
import { sseEvents, type SseEvent } from './sseEvents.js';

export interface FollowedRun {
  readonly seen: SseEvent[];
  /** The next event (undefined once the run's events ended). */
  next(): Promise<SseEvent | undefined>;
  /** Reads on until an event of this type, and resolves with its data. */
  until<T = Record<string, unknown>>(type: string): Promise<T & { readonly id: string }>;
  /** Reads every event left, until the run's events end. */
  rest(): Promise<SseEvent[]>;
  leave(): void;
}

/** Follows `GET /v1/runs/{id}/events` (after `lastEventId`, if given), with `headers` (a key's, say). */
export async function followRun(
  url: string,
  runId: string,
  lastEventId?: string,
  headers: Record<string, string> = {},
): Promise<FollowedRun> {
  const controller = new AbortController();
  const response = await fetch(`${url}/v1/runs/${runId}/events`, {
    signal: controller.signal,
    headers: lastEventId === undefined ? headers : { ...headers, 'Last-Event-ID': lastEventId },
  });
  expect(response.status).toBe(200);
  const events = sseEvents(response.body!);
  const seen: SseEvent[] = [];
  return {
    seen,
    async next() {
      const { value } = await events.next();
      if (value) seen.push(value);
      return value;
    },
    async until<T>(type: string) {
      for (;;) {
        const { value, done } = await events.next();
        if (done) throw new Error(`the run's events ended before ${type}: ${seen.map((event) => event.event).join(', ')}`);
        seen.push(value);
        if (value.event === type) return { ...(JSON.parse(value.data) as T), id: value.id! };
      }
    },
    async rest() {
      for await (const event of events) seen.push(event);
      return seen;
    },
    leave: () => controller.abort(),
  };
}
