import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createLlmAgent } from '../../../src/agent/llm/createLlmAgent.js';
import { loadConfig } from '../../../src/config.js';
import { startServer } from '../../../src/http/startServer.js';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'up', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/** An upstream that answers every request with one short stream, keeps each connection alive, and tells when a connection closed. */
async function keepAliveUpstream() {
  const closed: Promise<void>[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`${chunk({ role: 'assistant', content: 'hi' })}${chunk({}, 'stop')}data: [DONE]\n\n`);
    });
  });
  server.on('connection', (socket) => closed.push(once(socket, 'close').then(() => undefined)));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(async () => {
    server.closeAllConnections();
    server.close();
  });
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, closed };
}

describe('the upstream connection pools', () => {
  it('are closed at shutdown: the idle keep-alive connection to the upstream closes with the server', async () => {
    const upstream = await keepAliveUpstream();
    const running = await startServer({
      agent: createLlmAgent({ baseUrl: upstream.baseUrl, model: 'm' }),
      config: loadConfig({ RXGATE_PORT: '0' }),
    });
    closers.push(() => running.shutdown(0));
    const response = await fetch(`${running.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    await response.json();
    expect(upstream.closed).toHaveLength(1);
    let open = true;
    void upstream.closed[0]!.then(() => (open = false));

    await running.shutdown(0);
    // undici would keep the idle socket 4 s (the upstream's keep-alive, less a second); closed with the pool, it goes at once.
    await expect.poll(() => open, { timeout: 2_000 }).toBe(false);
  });
});
