import type { FetchLike } from '@modelcontextprotocol/client';
import { createFrameMeter } from '../../../upstream/createFrameMeter.js';
import { McpMessageTooLargeError } from './McpMessageTooLargeError.js';

function isEventStream(response: Response): boolean {
  return response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() === 'text/event-stream';
}

/** Counts every byte: a body that is one message (a JSON answer, an error page) is bounded as a whole. */
function createByteCounter(): (bytes: Uint8Array) => number {
  let total = 0;
  return (bytes) => (total += bytes.length);
}

/**
 * A `fetch` for the MCP SDK's Streamable HTTP transport that bounds what a server's answer can
 * make rxgate hold: an SSE body may send at most `maxMessageBytes` without ending an event, any
 * other body at most `maxMessageBytes` in all. Past the limit the body fails with
 * `McpMessageTooLargeError` and its request is aborted, and `onTooLarge` is told first (it closes
 * the session: a stream that broke off would otherwise be retried), where the SDK would buffer the
 * event or the body without end.
 *
 * ```
 * limit 16, SSE:   'data: {"a":1}\n\n'    passes: an event of 15 bytes (its blank line counted), then the count starts again
 *                   'data: {"a":12345'      fails at the chunk that takes an event that has not ended past 16 bytes
 * limit 16, JSON:  '{"result":{"a":1}}'    fails: 18 bytes
 * ```
 */
export function limitResponseBodies(
  maxMessageBytes: number,
  onTooLarge: (error: McpMessageTooLargeError) => void,
  baseFetch: FetchLike = fetch,
): FetchLike {
  return async (url, init) => {
    const response = await baseFetch(url, init);
    if (response.body === null) return response;
    const measure = isEventStream(response) ? createFrameMeter(maxMessageBytes) : createByteCounter();
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (measure(chunk) <= maxMessageBytes) {
            controller.enqueue(chunk);
            return;
          }
          const error = new McpMessageTooLargeError(maxMessageBytes);
          onTooLarge(error);
          controller.error(error);
        },
      }),
    );
    const bounded = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    // The SDK reads where a redirect came from.
    Object.defineProperties(bounded, { url: { value: response.url }, redirected: { value: response.redirected } });
    return bounded;
  };
}
