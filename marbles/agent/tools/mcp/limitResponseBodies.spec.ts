import { describe, expect, it } from 'vitest';
import { limitResponseBodies } from '../../../../src/agent/tools/mcp/limitResponseBodies.js';
import { McpMessageTooLargeError } from '../../../../src/agent/tools/mcp/McpMessageTooLargeError.js';

/**
 * A fetch that answers with `chunks` as the body, one read each (and then `x` without end, if
 * `endless`), and records whether the body was cancelled.
 */
function fakeFetch(contentType: string, chunks: string[], init: ResponseInit = {}, endless = false) {
  const state = { cancelled: false };
  const fetch = async () => {
    let index = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (index < chunks.length) controller.enqueue(new TextEncoder().encode(chunks[index++]));
        else if (endless) controller.enqueue(new TextEncoder().encode('x'));
        else controller.close();
      },
      cancel() {
        state.cancelled = true;
      },
    });
    return new Response(body, { status: 200, ...init, headers: { 'content-type': contentType, ...init.headers } });
  };
  return { fetch, state };
}

describe('limitResponseBodies', () => {
  it('passes an SSE body whose events each stay within the limit, however long the body', async () => {
    const tooLarge: McpMessageTooLargeError[] = [];
    const event = 'data: {"a":1}\n\n'; // 15 bytes, its blank line counted
    const { fetch } = fakeFetch('text/event-stream; charset=utf-8', Array.from({ length: 10 }, () => event));

    const response = await limitResponseBodies(16, (error) => tooLarge.push(error), fetch)('http://mcp.test/mcp');

    expect(await response.text()).toBe(event.repeat(10));
    expect(tooLarge).toEqual([]);
  });

  it('fails an SSE body at the chunk that takes an event that has not ended past the limit, tells onTooLarge first, and cancels the body', async () => {
    const tooLarge: McpMessageTooLargeError[] = [];
    const { fetch, state } = fakeFetch('text/event-stream', ['data: {"a":1}\n\n', 'data: {"a":12', '345'], {}, true);

    const response = await limitResponseBodies(16, (error) => tooLarge.push(error), fetch)('http://mcp.test/mcp');

    await expect(response.text()).rejects.toThrow(new McpMessageTooLargeError(16));
    expect(tooLarge).toEqual([new McpMessageTooLargeError(16)]);
    // The pipe cancels its source once it sees the error, a few promise jobs later.
    await new Promise((resolve) => setImmediate(resolve));
    expect(state.cancelled).toBe(true);
  });

  it('bounds any other body (a JSON answer, an error page) as a whole', async () => {
    const tooLarge: McpMessageTooLargeError[] = [];
    const small = fakeFetch('application/json', ['{"jsonrpc":', '"2"}']);
    const large = fakeFetch('application/json', ['{"jsonrpc":', '"2.0","result":{}}']);
    const limited = (fetch: typeof small.fetch) => limitResponseBodies(16, (error) => tooLarge.push(error), fetch)('http://mcp.test/mcp');

    expect(await (await limited(small.fetch)).text()).toBe('{"jsonrpc":"2"}');
    await expect((await limited(large.fetch)).json()).rejects.toThrow(McpMessageTooLargeError);
    expect(tooLarge).toHaveLength(1);
  });

  it('keeps the status, headers and url of the answer, and leaves a body-less answer as it is', async () => {
    const { fetch } = fakeFetch('application/json', ['{}'], { status: 404, statusText: 'Not Found' });
    const response = await limitResponseBodies(16, () => {}, async (...args) => {
      const answer = await fetch();
      Object.defineProperty(answer, 'url', { value: String(args[0]) });
      return answer;
    })('http://mcp.test/mcp');
    const empty = new Response(null, { status: 202 });

    expect(response.status).toBe(404);
    expect(response.statusText).toBe('Not Found');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.url).toBe('http://mcp.test/mcp');
    expect(await limitResponseBodies(16, () => {}, async () => empty)('http://mcp.test/mcp')).toBe(empty);
  });
});
