import { createOpenAI } from '@ai-sdk/openai';
import { generateText, streamText } from 'ai';
import OpenAI from 'openai';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createOfflineAgent } from '../../../src/agent/offline/createOfflineAgent.js';
import { approvalPolicy } from '../../../src/agent/tools/approvalPolicy.js';
import { BUILTIN_TOOLS } from '../../../src/agent/tools/createToolRegistry.js';
import { NOTE_NEEDS_APPROVAL } from '../../support/noteNeedsApproval.js';
import { answer, toolCalls, type ScriptedUpstream, type UpstreamScript } from '../../support/scriptedUpstream.js';
import { startApp } from '../../support/startApp.js';
import { useLlmGateway } from '../../support/startLlmGateway.js';

const gateways = useLlmGateway();
let upstream: ScriptedUpstream;

const clientOf = (url: string) => ({ url, client: new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0 }) });

/** The gateway in front of a scripted upstream, with `note` (which needs approval here) and `calculator`. */
async function start(scripts: readonly UpstreamScript[]) {
  const started = await gateways.start(scripts, NOTE_NEEDS_APPROVAL);
  upstream = started.upstream;
  return clientOf(started.gateway.url);
}

const noteCall = (id: string) => toolCalls({ id, name: 'note', fragments: ['{"text":"milk"}'] });

describe('the Responses API with a tool that needs approval (the official SDK)', () => {
  it('ends completed with an mcp_approval_request; approved with previous_response_id, the call runs and the model goes on', async () => {
    const { client } = await start([noteCall('call_1'), answer('Noted milk.'), answer('You asked me to note milk.')]);

    const first = await client.responses.create({ model: 'rxgate-agent', input: 'note milk' });
    expect(first.status).toBe('completed');
    expect(first.output).toEqual([
      { id: 'mcpr_call_1', type: 'mcp_approval_request', server_label: 'rxgate', name: 'note', arguments: '{"text":"milk"}' },
    ]);
    expect(upstream.requests).toHaveLength(1);

    const second = await client.responses.create({
      model: 'rxgate-agent',
      previous_response_id: first.id,
      input: [{ type: 'mcp_approval_response', approval_request_id: 'mcpr_call_1', approve: true }],
    });
    expect(second.status).toBe('completed');
    expect(second.output.map((item) => item.type)).toEqual(['mcp_call', 'message']);
    expect(second.output[0]).toMatchObject({ type: 'mcp_call', name: 'note', output: 'Noted: milk', status: 'completed' });
    expect(second.output_text).toBe('Noted milk.');
    const resumed = (await upstream.request(1)).body.messages as unknown[];
    expect(resumed.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'note', arguments: '{"text":"milk"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'Noted: milk' },
    ]);

    // The stored conversation carries the call and its result, so that it can go on.
    await client.responses.create({ model: 'rxgate-agent', previous_response_id: second.id, input: 'what did I ask?' });
    const third = (await upstream.request(2)).body.messages as { role: string; content: unknown }[];
    expect(third.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
  });

  it('a refusal (approve: false) is the tool result the model reads, with the reason; the call never runs', async () => {
    const { client } = await start([noteCall('call_1'), answer('Fine, I will not.')]);
    const first = await client.responses.create({ model: 'rxgate-agent', input: 'note milk', stream: false });

    const second = await client.responses.create({
      model: 'rxgate-agent',
      previous_response_id: first.id,
      input: [{ type: 'mcp_approval_response', approval_request_id: 'mcpr_call_1', approve: false, reason: 'no notes today' }],
    });

    expect(second.output.map((item) => item.type)).toEqual(['message']);
    const messages = (await upstream.request(1)).body.messages as unknown[];
    expect(messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'Error: a person refused this call: no notes today' });
  });

  it('streams the request as an output item, and refuses an answer to no request with 400 naming it', async () => {
    const { client, url } = await start([noteCall('call_1')]);
    const stream = await client.responses.create({ model: 'rxgate-agent', input: 'note milk', stream: true });
    const types: string[] = [];
    let id = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.completed') id = event.response.id;
    }
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.output_item.done',
      'response.completed',
    ]);

    const wrong = await fetch(`${url}/v1/responses`, {
      method: 'POST',
      body: JSON.stringify({
        previous_response_id: id,
        input: [{ type: 'mcp_approval_response', approval_request_id: 'mcpr_other', approve: true }],
      }),
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: { code: 'invalid_value', param: 'input[0].approval_request_id' } });
  });

  it('ends a background response the same way, its requests in the stored response', async () => {
    const { client } = await start([noteCall('call_1')]);
    const queued = await client.responses.create({ model: 'rxgate-agent', input: 'note milk', background: true });
    const stream = await client.responses.retrieve(queued.id, { stream: true });
    for await (const event of stream) if (event.type === 'response.completed') break;

    const stored = await client.responses.retrieve(queued.id);
    expect(stored).toMatchObject({ status: 'completed', output: [{ type: 'mcp_approval_request', id: 'mcpr_call_1', name: 'note' }] });
  });

  it('works with the offline agent: its note call waits, and runs once approved', async () => {
    const app = await startApp(createOfflineAgent({ tools: BUILTIN_TOOLS, delayMs: 0, requireApproval: approvalPolicy(['note']) }));
    onTestFinished(() => app.close());
    const { client } = clientOf(app.url);
    const first = await client.responses.create({ model: 'rxgate-agent', input: 'Please note: buy milk' });
    expect(first.output).toMatchObject([{ type: 'mcp_approval_request', id: 'mcpr_call_offline_note', name: 'note' }]);

    const second = await client.responses.create({
      model: 'rxgate-agent',
      previous_response_id: first.id,
      input: [{ type: 'mcp_approval_response', approval_request_id: 'mcpr_call_offline_note', approve: true }],
    });
    expect(second.output_text).toBe('I used my note tool. It said: Noted: Please note: buy milk');
  });
});

describe('the Vercel AI SDK (@ai-sdk/openai) and an approval request', () => {
  it('reads it as a provider-executed call awaiting approval, without an error', async () => {
    const { url } = await start([noteCall('call_1')]);
    const openai = createOpenAI({ baseURL: `${url}/v1`, apiKey: 'unused' });

    const result = await generateText({ model: openai('rxgate-agent'), prompt: 'note milk' });
    expect(result.content).toMatchObject([
      { type: 'tool-call', toolName: 'mcp.note', providerExecuted: true, dynamic: true },
      { type: 'tool-approval-request', approvalId: 'mcpr_call_1' },
    ]);

    const streamed = streamText({ model: openai('rxgate-agent'), prompt: 'note milk' });
    const parts: string[] = [];
    for await (const part of streamed.fullStream) parts.push(part.type);
    expect(parts).not.toContain('error');
    expect(parts).toContain('tool-approval-request');
  });
});
