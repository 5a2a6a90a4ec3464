import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { NEVER, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/agent/agentEvent.js';
import { Cancellation } from '../../../src/agent/cancellation.js';
import { chatProtocol } from '../../../src/chat/chatProtocol.js';
import { createChatCompletionMeta } from '../../../src/chat/createChatCompletionMeta.js';
import { ssePipeline } from '../../../src/pipeline/ssePipeline.js';

const RUN: AgentEvent[] = [
  { type: 'tool_start', callId: 'call_1', name: 'calculator', arguments: '{"expression":"6*7"}' },
  { type: 'tool_end', callId: 'call_1', name: 'calculator', result: '42', durationMs: 2 },
  { type: 'text', delta: 'It is 42.' },
  { type: 'finish', reason: 'stop' },
];

describe('tool progress chunks and the official openai SDK', () => {
  it('reach SDK users as ordinary chunks whose choices[0].delta is readable', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const meta = createChatCompletionMeta('rxgate-agent', false, true);
      ssePipeline(of(...RUN), chatProtocol(meta), {
        sink: res,
        clientClose$: NEVER,
        cancellation: new Cancellation(),
        keepaliveMs: 10_000,
      }).subscribe({
        complete: () => res.end(),
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const client = new OpenAI({
        baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        apiKey: 'unused',
        maxRetries: 0,
      });
      const stream = await client.chat.completions.create({
        model: 'rxgate-agent',
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
      });
      let content = '';
      const tools: unknown[] = [];
      for await (const chunk of stream) {
        content += chunk.choices[0]!.delta.content ?? '';
        const extension = (chunk as unknown as { rxgate_tool?: unknown }).rxgate_tool;
        if (extension) tools.push(extension);
      }
      expect(content).toBe('It is 42.');
      expect(tools).toEqual([
        { type: 'start', call_id: 'call_1', name: 'calculator', arguments: '{"expression":"6*7"}' },
        { type: 'end', call_id: 'call_1', name: 'calculator', result: '42', duration_ms: 2 },
      ]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
