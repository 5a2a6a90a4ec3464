import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { startEmbeddedServer } from '../../examples/embeddedServer.js';

describe('examples/embeddedServer.ts', () => {
  it('serves answers through its custom operators', async () => {
    const { server, url } = await startEmbeddedServer(0);
    try {
      const client = new OpenAI({ baseURL: url, apiKey: 'unused', maxRetries: 0 });
      const stream = await client.chat.completions.create({
        model: 'rxgate-agent',
        stream: true,
        messages: [{ role: 'user', content: 'What is 6*7?' }],
      });
      let text = '';
      let finish: string | null = null;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }

      expect(text).toContain('42');
      expect(text.endsWith('\n\n(answered by rxgate)')).toBe(true);
      expect(finish).toBe('stop');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
