import { describe, expect, it } from 'vitest';
import { InterruptReason } from '../../../src/agent/interruptReason.js';
import { loadConfig } from '../../../src/config.js';
import { startServer } from '../../../src/http/startServer.js';
import { dataFrames, readUntil } from '../../support/readSse.js';
import { finish, say, ScriptedAgent } from '../../support/scriptedAgent.js';

const streamRequest = (url: string) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    body: JSON.stringify({ stream: true, messages: [{ role: 'user', content: 'hi' }] }),
  });

describe('graceful shutdown', () => {
  it('lets a stream that finishes within the grace period finish', async () => {
    const agent = new ScriptedAgent([say('almost', 5), say(' done', 60), finish()]);
    const running = await startServer({ agent, config: loadConfig({ RXGATE_PORT: '0' }) });
    const response = await streamRequest(running.url);
    const firstBytes = await readUntil(response.body!, (text) => text.includes('almost'));
    const shutdown = running.shutdown(5_000);
    const rest = await readUntil(response.body!, () => false);
    await shutdown;

    expect(`${firstBytes}${rest}`.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(agent.runs[0]!.interrupts).toEqual([]);
  });

  it('interrupts what is still running after the grace period with "Server shutting down", and tells the client', async () => {
    const agent = new ScriptedAgent([say('thinking'), { silent: true }]);
    const running = await startServer({ agent, config: loadConfig({ RXGATE_PORT: '0' }) });
    const response = await streamRequest(running.url);
    await readUntil(response.body!, (text) => text.includes('thinking'));
    const shutdown = running.shutdown(50);
    const rest = await readUntil(response.body!, () => false);
    await shutdown;

    expect(agent.runs[0]!.interrupts.map((interrupt) => interrupt.reason)).toEqual([InterruptReason.shuttingDown]);
    expect(dataFrames(rest).at(-1)).toEqual({
      error: { message: 'rxgate: Server shutting down', type: 'server_error', param: null, code: 'shutdown' },
    });
    await expect(fetch(`${running.url}/health`)).rejects.toThrow();
  });
});
