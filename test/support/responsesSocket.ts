import OpenAI from 'openai';
import type { ResponsesServerEvent } from 'openai/resources/responses/responses';
import { ResponsesWS } from 'openai/resources/responses/ws';

const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed', 'error']);

/** A connection of the pinned openai SDK's `ResponsesWS` to a gateway, with every server event it received, in order. */
export interface ResponsesSocket {
  readonly ws: ResponsesWS;
  readonly events: readonly ResponsesServerEvent[];
  /** The events from the next one on to the next terminal event (`response.completed` and the like, or `error`), that one included. */
  untilTerminal(): Promise<ResponsesServerEvent[]>;
  /** Resolves once an event of `type` has arrived. */
  arrival(type: string): Promise<ResponsesServerEvent>;
  /** Resolves with the close code once the connection closed for good. */
  readonly closed: Promise<number>;
}

export function openResponsesSocket(url: string, apiKey = 'unused'): ResponsesSocket {
  const ws = new ResponsesWS(new OpenAI({ baseURL: `${url}/v1`, apiKey, maxRetries: 0 }));
  const events: ResponsesServerEvent[] = [];
  const waiters: (() => void)[] = [];
  ws.on('event', (event) => {
    events.push(event);
    for (const waiter of waiters.splice(0)) waiter();
  });
  // The SDK raises an error event as an 'error' too; the events list keeps it.
  ws.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  const waitFor = <T>(found: () => T | undefined): Promise<T> =>
    new Promise((resolve) => {
      const check = () => {
        const value = found();
        if (value === undefined) waiters.push(check);
        else resolve(value);
      };
      check();
    });
  let read = 0;
  return {
    ws,
    events,
    closed,
    untilTerminal: () =>
      waitFor(() => {
        const end = events.findIndex((event, index) => index >= read && TERMINAL.has(event.type));
        if (end === -1) return undefined;
        const taken = events.slice(read, end + 1);
        read = end + 1;
        return taken;
      }),
    arrival: (type) => waitFor(() => events.find((event) => event.type === type)),
  };
}
