/**
 * Headers of every SSE response: no caching, no proxy buffering (nginx honours X-Accel-Buffering).
 * No `Connection`: Node sends `keep-alive` itself, or `close` to a client that asked for it, which
 * a fixed `keep-alive` would override.
 */
export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache',
  'X-Accel-Buffering': 'no',
} as const;
