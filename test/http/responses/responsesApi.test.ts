import OpenAI, { APIError, NotFoundError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../../src/agent/agent.js';
import { InterruptReason } from '../../../src/agent/interruptReason.js';
import { AgentError } from '../../../src/errors/AgentError.js';
import { SqliteStore } from '../../../src/store/sqlite/SqliteStore.js';
import { ManualAgent } from '../../support/manualAgent.js';
import { finish, say, ScriptedAgent, usage, type ScriptStep } from '../../support/scriptedAgent.js';
import { startApp, type TestApp } from '../../support/startApp.js';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function clientFor(agent: Agent, options: Parameters<typeof startApp>[2] = {}) {
  app = await startApp(agent, {}, options);
  return new OpenAI({ baseURL: `${app.url}/v1`, apiKey: 'unused', maxRetries: 0 });
}

const unexpected = (): never => {
  throw new Error('expected the request to fail');
};

const scripted = (...script: ScriptStep[]) => new ScriptedAgent(script);

/** Parses `event:`/`id:`/`data:` frames of an SSE text. */
function typedFrames(text: string) {
  return text
    .split('\n\n')
    .filter((frame) => frame.includes('data: '))
    .map((frame) => {
      const fields = Object.fromEntries(
        frame.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
      );
      return {
        event: fields.event,
        id: fields.id,
        data: JSON.parse(fields.data!) as Record<string, unknown> & { type: string; sequence_number: number },
      };
    });
}

describe('the Responses API with the official openai client', () => {
  it('streams typed events with increasing sequence numbers, one terminal, and no [DONE]', async () => {
    const client = await clientFor(scripted(say('Hello'), say(', world'), usage(5, 2), finish()));
    const stream = await client.responses.create({ model: 'rxgate-agent', input: 'Say hello', stream: true });
    const events = [];
    for await (const event of stream) events.push(event);

    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_event, index) => index));
    const completed = events.at(-1)!;
    if (completed.type !== 'response.completed') throw new Error('expected response.completed');
    expect(completed.response.status).toBe('completed');
    expect(completed.response.output).toMatchObject([
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello, world' }] },
    ]);
    expect(completed.response.usage).toMatchObject({ input_tokens: 5, output_tokens: 2, total_tokens: 7 });
  });

  it('writes event: <type> and id: <sequence_number> frames on the wire, ending without [DONE]', async () => {
    await clientFor(scripted(say('Hi'), finish()));
    const response = await fetch(`${app!.url}/v1/responses`, { method: 'POST', body: JSON.stringify({ input: 'hi', stream: true }) });
    const text = await response.text();

    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(text).not.toContain('[DONE]');
    const frames = typedFrames(text);
    for (const frame of frames) {
      expect(frame.event).toBe(frame.data.type);
      expect(frame.id).toBe(String(frame.data.sequence_number));
    }
    expect(frames.filter((frame) => /^response\.(completed|incomplete|failed)$/.test(frame.event!))).toHaveLength(1);
  });

  it('returns the response object without streaming, with output_text and usage', async () => {
    const client = await clientFor(scripted(say('Hello'), usage(3, 1), finish()));
    const response = await client.responses.create({
      model: 'gpt-echo',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
    });

    expect(response).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'gpt-echo',
      store: true,
      background: false,
      conversation: null,
    });
    expect(response.id).toMatch(/^resp_/);
    expect(response.output_text).toBe('Hello');
    expect(response.usage).toEqual({
      input_tokens: 3,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 1,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 4,
    });
  });

  it('reports a tool the agent ran as an mcp_call item of server rxgate, not as a function_call for the client', async () => {
    const client = await clientFor(
      scripted(
        { event: { type: 'tool_start', callId: 'call_1', name: 'calculator', arguments: '{"expression":"6*7"}' } },
        { event: { type: 'tool_end', callId: 'call_1', name: 'calculator', result: '42', durationMs: 1 } },
        say('42'),
        finish(),
      ),
    );
    const stream = await client.responses.create({ input: 'what is 6*7?', stream: true });
    const events = [];
    for await (const event of stream) events.push(event);

    const added = events.find((event) => event.type === 'response.output_item.added');
    expect(added).toMatchObject({
      output_index: 0,
      item: { type: 'mcp_call', server_label: 'rxgate', name: 'calculator', arguments: '', status: 'in_progress' },
    });
    expect(events.find((event) => event.type === 'response.mcp_call_arguments.done')).toMatchObject({
      arguments: '{"expression":"6*7"}',
    });
    expect(events.some((event) => event.type.startsWith('response.function_call'))).toBe(false);
    const completed = events.at(-1)!;
    if (completed.type !== 'response.completed') throw new Error('expected response.completed');
    expect(completed.response.output).toMatchObject([
      {
        type: 'mcp_call',
        server_label: 'rxgate',
        name: 'calculator',
        arguments: '{"expression":"6*7"}',
        output: '42',
        status: 'completed',
      },
      { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: '42' }] },
    ]);
  });

  it('ends a failed stream with response.failed, and answers a failed non-streaming request with the error', async () => {
    const client = await clientFor(scripted(say('par'), { fail: new AgentError('the tool broke', 'tool_failed') }));
    const stream = await client.responses.create({ input: 'hi', stream: true });
    const events = [];
    for await (const event of stream) events.push(event);
    const failed = events.at(-1)!;
    if (failed.type !== 'response.failed') throw new Error('expected response.failed');
    expect(failed.response.status).toBe('failed');
    expect(failed.response.error).toEqual({ code: 'tool_failed', message: 'rxgate: the tool broke' });

    const error = await client.responses.create({ input: 'hi' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(500);
    expect((error as APIError).code).toBe('tool_failed');
  });

  it('chains with previous_response_id: the stored conversation once, then the new input', async () => {
    const agent = scripted(say('Hi Ann'), finish());
    const client = await clientFor(agent);
    const first = await client.responses.create({ input: 'I am Ann', instructions: 'Be brief' });
    const second = await client.responses.create({ input: 'Who am I?', previous_response_id: first.id });
    await client.responses.create({ input: 'And again?', previous_response_id: second.id });

    expect(agent.runs[0]!.request.messages).toEqual([
      { role: 'system', content: 'Be brief' },
      { role: 'user', content: 'I am Ann' },
    ]);
    expect(agent.runs[2]!.request.messages).toEqual([
      { role: 'user', content: 'I am Ann' },
      { role: 'assistant', content: 'Hi Ann' },
      { role: 'user', content: 'Who am I?' },
      { role: 'assistant', content: 'Hi Ann' },
      { role: 'user', content: 'And again?' },
    ]);
    expect(second.previous_response_id).toBe(first.id);
  });

  it('retrieves and deletes stored responses; a deleted or unknown one is a 404 that says so', async () => {
    const client = await clientFor(scripted(say('Hello'), finish()));
    const created = await client.responses.create({ input: 'hi' });

    const retrieved = await client.responses.retrieve(created.id);
    expect(retrieved.output_text).toBe('Hello');
    expect(retrieved).toEqual({ ...created, output_text: 'Hello' });

    await client.responses.delete(created.id);
    await expect(client.responses.retrieve(created.id)).rejects.toBeInstanceOf(NotFoundError);
    const chained = await client.responses
      .create({ input: 'more', previous_response_id: created.id })
      .then(unexpected, (caught: unknown) => caught as APIError);
    expect(chained).toBeInstanceOf(NotFoundError);
    expect(chained.message).toContain('was deleted');

    const unknown = await fetch(`${app!.url}/v1/responses`, {
      method: 'POST',
      body: JSON.stringify({ input: 'hi', previous_response_id: 'resp_nope' }),
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      error: {
        message: "rxgate: response 'resp_nope' not found",
        type: 'invalid_request_error',
        param: 'previous_response_id',
        code: 'response_not_found',
      },
    });
  });

  it('does not store a response with store: false', async () => {
    const client = await clientFor(scripted(say('Hello'), finish()));
    const created = await client.responses.create({ input: 'hi', store: false });
    await expect(client.responses.retrieve(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('interrupts the agent when a streaming client leaves, and stores an incomplete snapshot with the partial text', async () => {
    const agent = scripted(say('partial'), { silent: true });
    const client = await clientFor(agent);
    const stream = await client.responses.create({ input: 'hi', stream: true });
    let id = '';
    for await (const event of stream) {
      if (event.type === 'response.created') id = event.response.id;
      if (event.type === 'response.output_text.delta') stream.controller.abort();
    }
    const interrupt = await agent.runs[0]!.interrupted;

    expect(interrupt.reason).toBe(InterruptReason.clientDisconnected);
    expect(agent.runs[0]!.interrupts).toHaveLength(1);
    const stored = await client.responses.retrieve(id);
    expect(stored.status).toBe('incomplete');
    expect(stored.output_text).toBe('partial');
  });

  it('ends a stream the server interrupts (shutdown) by closing its message as incomplete, then response.incomplete with the text so far', async () => {
    const agent = scripted(say('partial'), { silent: true });
    const client = await clientFor(agent);
    const stream = await client.responses.create({ input: 'hi', stream: true });
    const types: string[] = [];
    let last: unknown;
    for await (const event of stream) {
      types.push(event.type);
      last = event;
      if (event.type === 'response.output_text.delta') void app!.activeRuns.stopAll(InterruptReason.shuttingDown);
    }

    expect((await agent.runs[0]!.interrupted).reason).toBe(InterruptReason.shuttingDown);
    expect(types.filter((type) => /^response\.(completed|incomplete|failed)$/.test(type))).toEqual(['response.incomplete']);
    // As OpenAI ends a response a limit cut: the open item's done events first.
    expect(types.slice(-4)).toEqual([
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.incomplete',
    ]);
    expect(last).toMatchObject({ response: { status: 'incomplete', output: [{ status: 'incomplete', content: [{ text: 'partial' }] }] } });
  });

  it('closes a tool of its own that was running when the server interrupted the stream as incomplete', async () => {
    const running: ScriptStep = { event: { type: 'tool_start', callId: 'call_1', name: 'lookup', arguments: '{}' } };
    const client = await clientFor(scripted(running, { silent: true }));
    const stream = await client.responses.create({ input: 'hi', stream: true });
    const events: { type: string; item?: unknown }[] = [];
    for await (const event of stream) {
      events.push(event);
      if (event.type === 'response.mcp_call_arguments.done') void app!.activeRuns.stopAll(InterruptReason.shuttingDown);
    }

    expect(events.slice(-2)).toMatchObject([
      { type: 'response.output_item.done', item: { type: 'mcp_call', name: 'lookup', status: 'incomplete', output: null } },
      { type: 'response.incomplete', response: { output: [{ type: 'mcp_call', status: 'incomplete' }] } },
    ]);
  });

  it('evicts by retention but keeps a tombstone: a chain through an evicted response is a 404 that says so', async () => {
    const store = new SqliteStore({ dataDir: ':memory:', retention: { maxItems: 1, maxAgeMs: 60_000, usageMaxAgeMs: 60_000 } });
    const client = await clientFor(scripted(say('ok'), finish()), { store });
    const first = await client.responses.create({ input: 'one' });
    const second = await client.responses.create({ input: 'two', previous_response_id: first.id });

    const evicted = await client.responses.retrieve(first.id).then(unexpected, (caught: unknown) => caught as APIError);
    expect(evicted).toBeInstanceOf(NotFoundError);
    expect(evicted.message).toContain('evicted');
    const broken = await client.responses
      .create({ input: 'three', previous_response_id: second.id })
      .then(unexpected, (caught: unknown) => caught as APIError);
    expect(broken.status).toBe(404);
    expect(broken.message).toContain(`response '${first.id}' (an ancestor of '${second.id}'`);
    expect(broken.message).toContain('evicted');
    expect(broken.code).toBe('response_evicted');

    const reference = await client.responses
      .create({
        input: [
          { role: 'user', content: 'four' },
          { type: 'item_reference', id: first.output[0]!.id! },
        ],
      })
      .then(unexpected, (caught: unknown) => caught as APIError);
    expect(reference).toMatchObject({ status: 404, param: 'input[1].id', code: 'item_evicted' });
    expect(reference.message).toContain('evicted');
  });
});

describe('background responses', () => {
  it('runs detached, and resumes its event stream after starting_after', async () => {
    const agent = new ManualAgent();
    const client = await clientFor(agent);
    const created = await client.responses.create({ input: 'hi', background: true });
    expect(created.status).toBe('queued');
    const run = await agent.started(0);
    run.events.next({ type: 'text', delta: 'one' });
    run.events.next({ type: 'text', delta: 'two' });

    const resumed = await client.responses.retrieve(created.id, { stream: true, starting_after: 4 });
    const seen = [];
    for await (const event of resumed) {
      seen.push(event);
      if (event.type === 'response.output_text.delta' && event.delta === 'two') {
        run.events.next({ type: 'text', delta: 'three' });
        run.events.complete();
      }
    }

    expect(seen.map((event) => event.sequence_number)).toEqual(seen.map((_event, index) => index + 5));
    expect(seen.filter((event) => event.type === 'response.output_text.delta').map((event) => (event as { delta: string }).delta)).toEqual([
      'two',
      'three',
    ]);
    expect(seen.at(-1)?.type).toBe('response.completed');
    expect((await client.responses.retrieve(created.id)).output_text).toBe('onetwothree');
  });

  it('is cancelled with POST /cancel: the agent is interrupted once, and the response says cancelled', async () => {
    const agent = new ManualAgent();
    const client = await clientFor(agent);
    const created = await client.responses.create({ input: 'hi', background: true });
    const run = await agent.started(0);
    run.events.next({ type: 'text', delta: 'so far' });

    const cancelled = await client.responses.cancel(created.id);

    expect(run.interrupts).toEqual([InterruptReason.stopRequested]);
    expect(cancelled).toMatchObject({ status: 'cancelled', output: [{ content: [{ text: 'so far' }] }] });
    const events = [];
    for await (const event of await client.responses.retrieve(created.id, { stream: true })) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'response.incomplete', response: { status: 'cancelled' } });
    expect(await client.responses.cancel(created.id)).toMatchObject({ status: 'cancelled' });
  });

  it('is interrupted by shutdown with "Server shutting down"', async () => {
    const agent = new ManualAgent();
    const client = await clientFor(agent);
    const created = await client.responses.create({ input: 'hi', background: true });
    const run = await agent.started(0);

    await app!.activeRuns.stopAll(InterruptReason.shuttingDown);

    expect(run.interrupts).toEqual([InterruptReason.shuttingDown]);
    expect((await client.responses.retrieve(created.id)).status).toBe('incomplete');
  });
});
