import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/http/startServer.js';
import { frames, type UpstreamScript, type UpstreamStep } from '../../support/scriptedUpstream.js';
import { useStartedServer } from '../../support/startedServer.js';
import { collect, openSocket } from './support/rawHttp.js';
import { heapAfterGc } from '../../support/heapAfterGc.js';

// Clients that do not play along: one that never reads, one that half-closes, and hundreds that
// leave in the same millisecond. Each must cost bounded memory and stop its upstream.

const servers = useStartedServer();

const gateway = (script: UpstreamScript, env: Record<string, string> = {}): Promise<RunningServer> => servers.start([script], env);

const STREAM_REQUEST = JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] });
const rawPost = `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${STREAM_REQUEST.length}\r\n\r\n${STREAM_REQUEST}`;

/** Waits for every run the server holds to end, then says how many are left. */
async function runsLeft(server: RunningServer): Promise<number> {
  await server.activeRuns.settled();
  return server.activeRuns.size;
}

describe('a client that never reads', () => {
  it('is cut off at the slow-client bound, its upstream is stopped, and memory stays flat', async () => {
    // 64 frames of ~1 KiB text per step, the same string each time: the upstream itself holds almost nothing.
    const burst: UpstreamStep = {
      raw: `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'up', choices: [{ index: 0, delta: { content: 'x'.repeat(1000) }, finish_reason: null }] })}\n\n`.repeat(
        64,
      ),
    };
    const steps: UpstreamStep[] = [frames.role(), ...Array.from({ length: 600 }, () => [burst, { delayMs: 1 }]).flat(), { stall: true }];
    // The output cap stays out of the way: ~40 MB of answer must meet the slow-client bound first.
    const server = await gateway({ steps }, { RXGATE_MAX_BUFFERED_BYTES: String(64 * 1024), RXGATE_MAX_OUTPUT_CHARS: String(100_000_000) });
    const before = heapAfterGc();

    const socket = await openSocket(server.url);
    socket.pause();
    socket.write(rawPost);
    const upstreamRequest = await servers.upstream!.request(0);
    const closed = await upstreamRequest.closed;
    const after = heapAfterGc();
    socket.destroy();

    // The upstream had ~40 MB to send and never finished: the cut-off stopped it.
    expect(closed.finished).toBe(false);
    expect(after - before).toBeLessThan(16 * 1024 * 1024);
    expect(await runsLeft(server)).toBe(0);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/^rxgate_slow_client_cutoffs_total 1$/m);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});

describe('a client that half-closes', () => {
  it('after sending its request: the stream ends as a disconnect, the upstream is stopped, nothing is left', async () => {
    const slow = Array.from({ length: 50 }, (_, i) => [frames.text(`${i} `), { delayMs: 20 }]).flat();
    const server = await gateway({ steps: [frames.role(), ...slow, frames.finish('stop'), frames.done()] });
    const socket = await openSocket(server.url);
    const answer = collect(socket, 3_000);
    socket.end(rawPost);

    const closed = await (await servers.upstream!.request(0)).closed;
    const { text } = await answer;
    expect(closed.finished).toBe(false);
    expect(text).not.toContain('"finish_reason":"stop"');
    expect(await runsLeft(server)).toBe(0);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});

describe('hundreds of clients that leave in the same millisecond', () => {
  it('every interrupt reaches the upstream', async () => {
    const clients = 300;
    const server = await gateway({ steps: [frames.role(), frames.text('first'), { stall: true }] });
    const controller = new AbortController();
    const responses = await Promise.all(
      Array.from({ length: clients }, () =>
        fetch(`${server.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: STREAM_REQUEST,
          signal: controller.signal,
        }),
      ),
    );
    // Every stream has delivered its first delta, so every upstream request is in flight.
    await Promise.all(
      responses.map(async (response) => {
        const reader = response.body!.getReader();
        let text = '';
        while (!text.includes('first')) {
          const { value, done } = await reader.read();
          // An ended stream reads as done at once, forever: without this the loop would starve the test's own timeout.
          if (done) throw new Error(`the stream ended before its first delta: ${text}`);
          text += new TextDecoder().decode(value);
        }
        reader.releaseLock();
      }),
    );
    expect(servers.upstream!.requests).toHaveLength(clients);
    expect(server.activeRuns.size).toBe(clients);

    const abortedAt = performance.now();
    controller.abort();
    const closes = await Promise.all(servers.upstream!.requests.map((request) => request.closed));
    const latest = Math.max(...closes.map((close) => close.at)) - abortedAt;

    expect(closes.every((close) => !close.finished)).toBe(true);
    expect(await runsLeft(server)).toBe(0);
    console.info(`${clients} simultaneous disconnects: the last upstream socket closed ${latest.toFixed(1)} ms after the abort`);
  });
});
