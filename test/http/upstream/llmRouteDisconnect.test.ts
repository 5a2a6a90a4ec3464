import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InterruptReason } from '../../../src/agent/interruptReason.js';
import { defineTool } from '../../../src/agent/tools/tool.js';
import { dataFrames, readUntil } from '../../support/readSse.js';
import { answer, frames } from '../../support/scriptedUpstream.js';
import { TEST_API_KEY, useLlmGateway } from '../../support/startLlmGateway.js';

// Issue 4, end to end: a client of POST /v1/chat/completions that leaves stops the upstream LLM.

const API_KEY = TEST_API_KEY;
const { start } = useLlmGateway();

function chat(url: string, body: Record<string, unknown>, signal?: AbortSignal) {
  return fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'rxgate-agent', messages: [{ role: 'user', content: 'hello' }], ...body }),
    signal,
  });
}

const interrupted = (line: Record<string, unknown>) => line.msg === 'llm run interrupted';
const requestLine = (line: Record<string, unknown>) => line.msg === 'request';

describe('a streaming client of the LLM agent that leaves (real HTTP, real upstream socket)', () => {
  it('closes the upstream socket when it aborts mid-stream', async () => {
    const { upstream, gateway } = await start([{ steps: [frames.role(), frames.text('first'), { stall: true }] }]);
    const controller = new AbortController();
    const response = await chat(gateway.url, { stream: true }, controller.signal);
    await readUntil(response.body!, (text) => text.includes('first'));

    const abortedAt = performance.now();
    controller.abort();
    const closed = await upstream.requests[0]!.closed;

    expect(closed.finished).toBe(false);
    console.info(`client abort -> upstream socket close (mid-stream, via HTTP): ${(closed.at - abortedAt).toFixed(2)} ms`);
    expect(await gateway.log.next(interrupted)).toMatchObject({ reason: InterruptReason.clientDisconnected });
    expect(await gateway.log.next(requestLine)).toMatchObject({
      status: 200,
      outcome: 'client_disconnected',
      interruptReason: InterruptReason.clientDisconnected,
    });
    expect(upstream.requests).toHaveLength(1);
    expect(gateway.log.text()).not.toContain(API_KEY);
  });

  it('closes the upstream socket when it aborts while the upstream is silent before its first token', async () => {
    const { upstream, gateway } = await start([{ steps: [frames.role(), { stall: true }] }]);
    const controller = new AbortController();
    const response = await chat(gateway.url, { stream: true }, controller.signal);
    const seen = await readUntil(response.body!, (text) => text.includes('"role":"assistant"'));
    await upstream.request(0);

    const abortedAt = performance.now();
    controller.abort();
    const closed = await upstream.requests[0]!.closed;

    expect(closed.finished).toBe(false);
    console.info(`client abort -> upstream socket close (silent upstream, via HTTP): ${(closed.at - abortedAt).toFixed(2)} ms`);
    expect(dataFrames(seen)).toEqual([expect.objectContaining({ choices: [expect.objectContaining({ delta: { role: 'assistant' } })] })]);
    expect(await gateway.log.next(interrupted)).toMatchObject({ reason: InterruptReason.clientDisconnected });
  });

  it('aborts a running tool, and makes no second upstream request, when it aborts while the tool runs', async () => {
    let toolStarted!: (signal: AbortSignal) => void;
    const started = new Promise<AbortSignal>((resolve) => (toolStarted = resolve));
    const waitTool = defineTool({
      name: 'wait',
      description: 'waits until aborted',
      parameters: z.object({}),
      run: (_args, signal) => {
        toolStarted(signal);
        return new Promise<string>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
      },
    });
    const { upstream, gateway } = await start(
      [
        {
          steps: [
            frames.toolCallStart(0, 'call_wait', 'wait'),
            frames.toolCallArguments(0, '{}'),
            frames.finish('tool_calls'),
            frames.usage(7, 1),
            frames.done(),
          ],
        },
        answer('never'),
      ],
      { tools: [waitTool] },
    );
    const controller = new AbortController();
    const response = await chat(gateway.url, { stream: true, stream_options: { include_tool_progress: true } }, controller.signal);
    const toolSignal = await started;
    await readUntil(response.body!, (text) => text.includes('"rxgate_tool"'));
    const aborted = new Promise<number>((resolve) => toolSignal.addEventListener('abort', () => resolve(performance.now())));

    const abortedAt = performance.now();
    controller.abort();
    const toolAbortedAt = await aborted;
    await gateway.log.next(requestLine);

    expect(toolSignal.aborted).toBe(true);
    console.info(`client abort -> tool signal abort (via HTTP): ${(toolAbortedAt - abortedAt).toFixed(2)} ms`);
    expect(await upstream.requests[0]!.closed).toMatchObject({ finished: true });
    expect(upstream.requests).toHaveLength(1);
    expect(await gateway.log.next(interrupted)).toMatchObject({
      reason: InterruptReason.clientDisconnected,
      usage: { inputTokens: 7, outputTokens: 1, totalTokens: 8 },
    });
  });

  it('does not abort the upstream when it reads to the end', async () => {
    const { upstream, gateway } = await start([answer('Hello', ', world')]);
    const response = await chat(gateway.url, { stream: true });
    const text = await response.text();

    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    const contents = dataFrames(text).flatMap((frame) =>
      typeof frame === 'string' ? [] : [(frame as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? ''],
    );
    expect(contents.join('')).toBe('Hello, world');
    expect(await upstream.requests[0]!.closed).toMatchObject({ finished: true });
    expect(await gateway.log.next(requestLine)).toMatchObject({ status: 200, outcome: 'completed' });
    expect(gateway.log.lines.filter(interrupted)).toEqual([]);
  });

  it('does not abort the upstream when the openai SDK reads the stream to the end', async () => {
    const { upstream, gateway } = await start([answer('Hello', ', world')]);
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'rxgate-agent',
      messages: [{ role: 'user', content: 'hello' }],
      stream: true,
    });
    let content = '';
    for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';

    expect(content).toBe('Hello, world');
    expect(await upstream.requests[0]!.closed).toMatchObject({ finished: true });
    expect(gateway.log.lines.filter(interrupted)).toEqual([]);
  });

  it('closes the upstream socket when the openai SDK aborts its stream mid-way', async () => {
    const { upstream, gateway } = await start([{ steps: [frames.role(), frames.text('first'), { stall: true }] }]);
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'rxgate-agent',
      messages: [{ role: 'user', content: 'hello' }],
      stream: true,
    });
    let content = '';
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      if (content === 'first') break;
    }

    const closed = await upstream.requests[0]!.closed;

    expect(closed.finished).toBe(false);
    expect(await gateway.log.next(interrupted)).toMatchObject({ reason: InterruptReason.clientDisconnected });
  });
});

describe('a non-streaming client of the LLM agent that leaves', () => {
  it('closes the upstream socket when fetch aborts while the answer is being generated', async () => {
    const { upstream, gateway } = await start([{ steps: [frames.role(), frames.text('first'), { stall: true }] }]);
    const controller = new AbortController();
    const response = chat(gateway.url, { stream: false }, controller.signal);
    await upstream.request(0);

    const abortedAt = performance.now();
    controller.abort();
    await expect(response).rejects.toThrow();
    const closed = await upstream.requests[0]!.closed;

    expect(closed.finished).toBe(false);
    console.info(`client abort -> upstream socket close (non-streaming, via HTTP): ${(closed.at - abortedAt).toFixed(2)} ms`);
    expect(await gateway.log.next(interrupted)).toMatchObject({ reason: InterruptReason.clientDisconnected });
    expect(await gateway.log.next(requestLine)).toMatchObject({ outcome: 'client_disconnected' });
  });

  it('closes the upstream socket when the openai SDK request is aborted', async () => {
    const { upstream, gateway } = await start([{ steps: [frames.role(), { stall: true }] }]);
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const controller = new AbortController();
    const completion = client.chat.completions.create(
      { model: 'rxgate-agent', messages: [{ role: 'user', content: 'hello' }] },
      { signal: controller.signal },
    );
    await upstream.request(0);

    controller.abort();
    await expect(completion).rejects.toThrow(OpenAI.APIUserAbortError);
    expect(await upstream.requests[0]!.closed).toMatchObject({ finished: false });
    expect(await gateway.log.next(interrupted)).toMatchObject({ reason: InterruptReason.clientDisconnected });
  });
});
