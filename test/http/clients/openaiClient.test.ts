import OpenAI, { APIError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { InterruptReason } from '../../../src/agent/interruptReason.js';
import { AgentError } from '../../../src/errors/AgentError.js';
import { finish, say, ScriptedAgent, usage, type ScriptStep } from '../../support/scriptedAgent.js';
import { startApp, type TestApp } from '../../support/startApp.js';

let app: TestApp | undefined;
afterEach(async () => app?.close());

async function clientFor(script: readonly ScriptStep[]) {
  const agent = new ScriptedAgent(script);
  app = await startApp(agent);
  return { agent, client: new OpenAI({ baseURL: `${app.url}/v1`, apiKey: 'unused', maxRetries: 0 }) };
}

const messages = [{ role: 'user' as const, content: 'Say hello' }];

describe('the official openai client', () => {
  it('streams the role chunk, the text and the finish reason', async () => {
    const { client } = await clientFor([say('Hello'), say(', world'), finish()]);
    const stream = await client.chat.completions.create({ model: 'rxgate-agent', messages, stream: true });
    const deltas: unknown[] = [];
    for await (const chunk of stream) deltas.push({ ...chunk.choices[0]!.delta, finish: chunk.choices[0]!.finish_reason });

    expect(deltas).toEqual([
      { role: 'assistant', finish: null },
      { content: 'Hello', finish: null },
      { content: ', world', finish: null },
      { finish: 'stop' },
    ]);
  });

  it('gets the usage chunk with include_usage', async () => {
    const { client } = await clientFor([say('hi'), usage(7, 1), finish()]);
    const stream = await client.chat.completions.create({ model: 'm', messages, stream: true, stream_options: { include_usage: true } });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);

    expect(chunks.at(-1)?.choices).toEqual([]);
    expect(chunks.at(-1)?.usage).toEqual({ prompt_tokens: 7, completion_tokens: 1, total_tokens: 8 });
  });

  it('returns the message of a non-streaming request', async () => {
    const { client } = await clientFor([say('Hello'), usage(3, 1), finish()]);
    const completion = await client.chat.completions.create({ model: 'gpt-echo', messages });

    expect(completion.model).toBe('gpt-echo');
    expect(completion.choices[0]?.message).toEqual({ role: 'assistant', content: 'Hello' });
    expect(completion.usage?.total_tokens).toBe(4);
  });

  it('interrupts the agent once with "SSE client disconnected" on stream.controller.abort()', async () => {
    const { agent, client } = await clientFor([say('first'), { silent: true }]);
    const stream = await client.chat.completions.create({ model: 'm', messages, stream: true });
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content === 'first') stream.controller.abort();
    }
    const interrupt = await agent.runs[0]!.interrupted;

    expect(interrupt.reason).toBe(InterruptReason.clientDisconnected);
    expect(agent.runs[0]!.interrupts).toHaveLength(1);
  });

  it('raises APIError for a run that fails after the stream started, never an empty success', async () => {
    const { client } = await clientFor([say('partial'), { fail: new AgentError('the agent broke') }]);
    const stream = await client.chat.completions.create({ model: 'm', messages, stream: true });
    const seen: string[] = [];
    const consume = async () => {
      for await (const chunk of stream) seen.push(chunk.choices[0]?.finish_reason ?? '');
    };

    await expect(consume()).rejects.toBeInstanceOf(APIError);
    expect(seen).not.toContain('stop');
  });

  it('raises APIError with the status for a run that fails without streaming', async () => {
    const { client } = await clientFor([{ fail: new AgentError('the agent broke') }]);

    await expect(client.chat.completions.create({ model: 'm', messages })).rejects.toMatchObject({ status: 500, code: 'agent_error' });
  });
});
