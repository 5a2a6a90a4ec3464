import OpenAI from 'openai';
import type { ResponseStreamEvent, ResponsesServerEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { openResponsesSocket } from '../../support/responsesSocket.js';
import { answer, endlessAnswer, frames, toolCalls } from '../../support/scriptedUpstream.js';
import { useLlmGateway } from '../../support/startLlmGateway.js';

// The Responses API over WebSocket (`GET /v1/responses`, Upgrade: websocket) with the pinned openai
// SDK's ResponsesWS: the same events as over SSE, chains kept in the connection's memory, and a
// closed socket closing the upstream request.

const gateways = useLlmGateway();
const wsUrl = (url: string) => `${url.replace(/^http/, 'ws')}/v1/responses`;
const shape = (events: readonly (ResponseStreamEvent | ResponsesServerEvent)[]) =>
  events.map((event) => [event.type, (event as { sequence_number?: number }).sequence_number]);
const messagesOf = (body: Record<string, unknown>) =>
  (body.messages as { role: string; content: unknown }[]).map(({ role, content }) => [role, content]);

/** The status an upgrade was refused with. */
function refusedWith(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl(url), { headers });
    socket.on('open', () => reject(new Error('the upgrade was taken')));
    socket.on('error', () => undefined);
    socket.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
  });
}

describe('the Responses API over WebSocket', () => {
  it('streams a turn as the very events SSE sends, one message each', async () => {
    const { gateway } = await gateways.start([answer('Hello', ' there')]);
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const overSse: ResponseStreamEvent[] = [];
    for await (const event of await client.responses.create({ model: 'rxgate-agent', input: 'Hi', stream: true })) overSse.push(event);

    const socket = openResponsesSocket(gateway.url);
    socket.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'Hi' });
    const overSocket = await socket.untilTerminal();
    socket.ws.close();

    expect(shape(overSocket)).toEqual(shape(overSse));
    const completed = overSocket.at(-1) as { response: { id: string; output_text?: string; output: { content: { text: string }[] }[] } };
    expect(completed.response.output[0]!.content[0]!.text).toBe('Hello there');
  });

  it('chains a turn with store: false from the connection’s memory, sending only the new input', async () => {
    const { upstream, gateway } = await gateways.start([answer('First'), answer('Second')]);
    const socket = openResponsesSocket(gateway.url);
    socket.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'One', store: false });
    const first = (await socket.untilTerminal()).at(-1) as { type: string; response: { id: string } };
    expect(first.type).toBe('response.completed');
    socket.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'Two', store: false, previous_response_id: first.response.id });
    const second = (await socket.untilTerminal()).at(-1)!;
    socket.ws.close();

    expect(second.type).toBe('response.completed');
    expect(messagesOf((await upstream.request(1)).body).filter(([role]) => role !== 'system')).toEqual([
      ['user', 'One'],
      ['assistant', 'First'],
      ['user', 'Two'],
    ]);
    // Not stored: over HTTP the chain is unknown.
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    await expect(client.responses.retrieve(first.response.id)).rejects.toMatchObject({ status: 404 });
  });

  it('chains from a response stored over HTTP, which the connection never saw', async () => {
    const { upstream, gateway } = await gateways.start([answer('Stored'), answer('Chained')]);
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const stored = await client.responses.create({ model: 'rxgate-agent', input: 'Over HTTP' });
    const socket = openResponsesSocket(gateway.url);
    socket.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'Over WebSocket', previous_response_id: stored.id });
    expect((await socket.untilTerminal()).at(-1)!.type).toBe('response.completed');
    socket.ws.close();
    expect(messagesOf((await upstream.request(1)).body).filter(([role]) => role !== 'system')).toEqual([
      ['user', 'Over HTTP'],
      ['assistant', 'Stored'],
      ['user', 'Over WebSocket'],
    ]);
  });

  it('closes a connection that lived RXGATE_WS_MAX_AGE_MS with 4000, once its response has ended', async () => {
    const { gateway } = await gateways.start([answer('Before the end')], {}, { wsMaxAgeMs: 200 });
    const socket = openResponsesSocket(gateway.url);
    socket.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'Hi' });
    expect((await socket.untilTerminal()).at(-1)!.type).toBe('response.completed');
    expect(await socket.closed).toBe(4000);
  });

  it('takes a client tool’s output by previous_response_id', async () => {
    const calls = toolCalls({ id: 'call_1', name: 'lookup', fragments: ['{"q":', '"x"}'] });
    const { upstream, gateway } = await gateways.start([calls, answer('Found it')]);
    const socket = openResponsesSocket(gateway.url);
    const tools = [
      { type: 'function' as const, name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } }, strict: false },
    ];
    socket.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'Look it up', tools, store: false });
    const first = (await socket.untilTerminal()).at(-1) as { response: { id: string; output: { type: string; call_id?: string }[] } };
    expect(first.response.output.map((item) => item.type)).toEqual(['function_call']);
    socket.ws.send({
      type: 'response.create',
      model: 'rxgate-agent',
      tools,
      store: false,
      previous_response_id: first.response.id,
      input: [{ type: 'function_call_output', call_id: 'call_1', output: '42' }],
    });
    const second = (await socket.untilTerminal()).at(-1)!;
    socket.ws.close();

    expect(second.type).toBe('response.completed');
    const sent = (await upstream.request(1)).body.messages as { role: string; content: unknown; tool_call_id?: string }[];
    expect(sent.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_1', content: '42' });
  });

  it('answers generate: false with a response to chain from, calling no model', async () => {
    const { upstream, gateway } = await gateways.start([answer('After warm-up')]);
    const socket = openResponsesSocket(gateway.url);
    socket.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'Warm', store: false, generate: false } as never);
    const warm = await socket.untilTerminal();
    expect(warm.map((event) => event.type)).toEqual(['response.created', 'response.in_progress', 'response.completed']);
    expect(upstream.requests).toHaveLength(0);
    const id = (warm.at(-1) as { response: { id: string } }).response.id;
    socket.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'Go', store: false, previous_response_id: id });
    const chained = (await socket.untilTerminal()).at(-1)!;
    expect(chained, JSON.stringify(chained)).toMatchObject({ type: 'response.completed' });
    socket.ws.close();
    expect(messagesOf((await upstream.request(0)).body).filter(([role]) => role !== 'system')).toEqual([
      ['user', 'Warm'],
      ['user', 'Go'],
    ]);
  });

  it('answers a chain nobody knows with previous_response_not_found and stays open', async () => {
    const { gateway } = await gateways.start([answer('Still here')]);
    const socket = openResponsesSocket(gateway.url);
    socket.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'Hi', previous_response_id: 'resp_gone' });
    const [error] = await socket.untilTerminal();
    expect(error).toMatchObject({
      type: 'error',
      code: 'previous_response_not_found',
      param: 'previous_response_id',
      status: 404,
      error: { code: 'previous_response_not_found', message: expect.stringContaining('resp_gone') },
    });
    socket.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'Hi' });
    expect((await socket.untilTerminal()).at(-1)!.type).toBe('response.completed');
    socket.ws.close();
  });

  it('refuses a chain in the connection’s memory over RXGATE_MAX_CONVERSATION_BYTES as a stored one, and stays open', async () => {
    const { upstream, gateway } = await gateways.start([answer('x'.repeat(600)), answer('Fresh start')], {}, { maxConversationBytes: 512 });
    const socket = openResponsesSocket(gateway.url);
    socket.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'Long answer, please', store: false });
    const first = (await socket.untilTerminal()).at(-1) as { response: { id: string } };
    socket.ws.send({
      type: 'response.create',
      model: 'rxgate-agent',
      input: 'More',
      store: false,
      previous_response_id: first.response.id,
    });
    expect((await socket.untilTerminal())[0]).toMatchObject({
      type: 'error',
      code: 'conversation_too_large',
      param: 'previous_response_id',
      status: 400,
      error: { message: expect.stringContaining('RXGATE_MAX_CONVERSATION_BYTES') },
    });
    socket.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'Hi', store: false });
    expect((await socket.untilTerminal()).at(-1)!.type).toBe('response.completed');
    socket.ws.close();
    expect(upstream.requests).toHaveLength(2);
  });

  it('closes a connection that sends more than RXGATE_WS_MAX_QUEUED_EVENTS ahead with 1008, closing the upstream request', async () => {
    const { upstream, gateway } = await gateways.start([endlessAnswer('tick ')], {}, { wsMaxQueuedEvents: 2 });
    const socket = openResponsesSocket(gateway.url);
    socket.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'Go on forever' });
    await socket.arrival('response.output_text.delta');
    for (let i = 0; i < 3; i++) socket.ws.send({ type: 'response.create', model: 'rxgate-agent', input: `Then ${i}` });

    expect(await socket.closed).toBe(1008);
    expect((await (await upstream.request(0)).closed).finished).toBe(false);
    await expect.poll(() => gateway.activeRuns.size).toBe(0);
  });

  it('refuses background and an event it does not know by name, and goes on', async () => {
    const { gateway } = await gateways.start([answer('ok')]);
    const socket = openResponsesSocket(gateway.url);
    socket.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'Hi', background: true });
    expect((await socket.untilTerminal())[0]).toMatchObject({
      type: 'error',
      param: 'background',
      code: 'unsupported_parameter',
      status: 400,
    });
    socket.ws.sendRaw(JSON.stringify({ type: 'response.cancel' }));
    expect((await socket.untilTerminal())[0]).toMatchObject({ type: 'error', param: 'type', code: 'invalid_event' });
    socket.ws.close();
  });

  it('closes the upstream request when the socket closes mid-stream', async () => {
    const { upstream, gateway } = await gateways.start([endlessAnswer('tick ')]);
    const socket = openResponsesSocket(gateway.url);
    socket.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'Go on forever' });
    await socket.arrival('response.output_text.delta');
    (socket.ws.socket.platformSocket as WebSocket).terminate();

    const closed = await (await upstream.request(0)).closed;
    expect(closed.finished).toBe(false);
    await expect.poll(() => gateway.activeRuns.size).toBe(0);
  });

  it('cuts off a reader that stops reading past RXGATE_MAX_BUFFERED_BYTES, closing the upstream request', async () => {
    const { upstream, gateway } = await gateways.start([endlessAnswer('tick ')], {}, { maxBufferedBytes: 64 * 1024 });
    const socket = openResponsesSocket(gateway.url);
    socket.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'Go on forever' });
    await socket.arrival('response.output_text.delta');
    (socket.ws.socket.platformSocket as WebSocket).pause();

    const closed = await (await upstream.request(0)).closed;
    expect(closed.finished).toBe(false);
    await expect.poll(() => gateway.activeRuns.size).toBe(0);
  });

  it('drops a socket that leaves a ping unanswered while the agent waits for its first token, closing the upstream request', async () => {
    const { upstream, gateway } = await gateways.start([{ steps: [frames.role(), { stall: true }] }], {}, { keepaliveMs: 50 });
    const socket = openResponsesSocket(gateway.url);
    socket.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'Think hard' });
    await socket.arrival('response.in_progress');
    // A client that stops reading answers no ping either.
    (socket.ws.socket.platformSocket as WebSocket).pause();

    const closed = await (await upstream.request(0)).closed;
    expect(closed.finished).toBe(false);
    await expect.poll(() => gateway.activeRuns.size).toBe(0);
  });

  it('closes a connection whose message is over RXGATE_MAX_BODY_BYTES with 1009, and takes the next one', async () => {
    const { gateway } = await gateways.start([answer('Small enough')], {}, { maxBodyBytes: 4096 });
    const big = openResponsesSocket(gateway.url);
    big.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'x'.repeat(10_000) });
    expect(await big.closed).toBe(1009);
    const next = openResponsesSocket(gateway.url);
    next.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'Hi' });
    expect((await next.untilTerminal()).at(-1)!.type).toBe('response.completed');
    next.ws.close();
  });

  it('refuses a bad key at the upgrade, and takes the good one', async () => {
    const key = 'sk-rxgate-websocket-0001';
    const { gateway } = await gateways.start([answer('Welcome')], {}, { apiKey: key });
    const refused = await refusedWith(gateway.url, { authorization: 'Bearer sk-wrong-key-000000000' });
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'invalid_api_key' } });
    const socket = openResponsesSocket(gateway.url, key);
    socket.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'Hi' });
    expect((await socket.untilTerminal()).at(-1)!.type).toBe('response.completed');
    socket.ws.close();
  });

  it('refuses an upgrade from a page of a foreign origin, as the CSRF rule refuses a request', async () => {
    const { gateway } = await gateways.start([answer('never')]);
    const refused = await refusedWith(gateway.url, { origin: 'https://evil.example' });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'origin_not_allowed' } });
  });

  it('answers every upgrade 426 with RXGATE_WS=off', async () => {
    const { gateway } = await gateways.start([answer('never')], {}, { ws: 'off' });
    const refused = await refusedWith(gateway.url);
    expect(refused.status).toBe(426);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'websocket_disabled' } });
  });

  it('refuses a key its connection past RXGATE_WS_MAX_CONNECTIONS with 429', async () => {
    const { gateway } = await gateways.start([answer('One')], {}, { wsMaxConnections: 1 });
    const socket = openResponsesSocket(gateway.url);
    socket.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'Hi' });
    await socket.untilTerminal();
    const refused = await refusedWith(gateway.url);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
    socket.ws.close();
  });
});
