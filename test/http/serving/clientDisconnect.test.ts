import { afterEach, describe, expect, it } from 'vitest';
import { InterruptReason } from '../../../src/agent/interruptReason.js';
import { finish, say, ScriptedAgent, type ScriptStep } from '../../support/scriptedAgent.js';
import { readUntil } from '../../support/readSse.js';
import { startApp, type TestApp } from '../../support/startApp.js';

let app: TestApp | undefined;
afterEach(async () => app?.close());

async function openStream(script: readonly ScriptStep[]) {
  const agent = new ScriptedAgent(script);
  app = await startApp(agent);
  const controller = new AbortController();
  const response = await fetch(`${app.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    signal: controller.signal,
  });
  return { agent, controller, response };
}

describe('a client that leaves (real HTTP)', () => {
  it('interrupts the agent once, with "SSE client disconnected", when it aborts mid-stream', async () => {
    const { agent, controller, response } = await openStream([say('one '), say('two ', 10), { silent: true }]);
    await readUntil(response.body!, (text) => text.includes('two'));
    const abortedAt = performance.now();
    controller.abort();
    const run = agent.runs[0]!;
    const interrupt = await run.interrupted;
    // Once the response is over and a turn has passed, a second interrupt would have happened.
    await app!.activeRuns.settled();
    await new Promise((resolve) => setImmediate(resolve));

    expect(interrupt.reason).toBe(InterruptReason.clientDisconnected);
    expect(run.abortedAt).toBeDefined();
    expect(run.interrupts).toHaveLength(1);
    console.info(`disconnect-to-interrupt (streaming): ${(interrupt.at - abortedAt).toFixed(2)} ms`);
  });

  it('interrupts an agent that is silent before its first token', async () => {
    const { agent, controller, response } = await openStream([{ silent: true }]);
    await readUntil(response.body!, (text) => text.includes('"role":"assistant"'));
    const abortedAt = performance.now();
    controller.abort();
    const interrupt = await agent.runs[0]!.interrupted;
    await app!.activeRuns.settled();
    await new Promise((resolve) => setImmediate(resolve));

    expect(interrupt.reason).toBe(InterruptReason.clientDisconnected);
    expect(agent.runs[0]!.abortedAt).toBeDefined();
    expect(agent.runs[0]!.interrupts).toHaveLength(1);
    console.info(`disconnect-to-interrupt (silent agent): ${(interrupt.at - abortedAt).toFixed(2)} ms`);
  });

  it('does not take a fully read POST body for a disconnect (the req "close" trap)', async () => {
    // The run outlives the moment express.json() finished reading the body by 50 ms.
    const { agent, response } = await openStream([say('late answer', 50), finish()]);
    const text = await response.text();

    expect(text).toContain('late answer');
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(agent.runs[0]!.interrupts).toEqual([]);
    expect(agent.runs[0]!.abortedAt).toBeUndefined();
  });

  it('does not interrupt a run whose client read to the end', async () => {
    const { agent, response } = await openStream([say('a'), say('b', 5), finish()]);
    await response.text();
    await new Promise<void>((resolve) => app!.server.getConnections(() => resolve()));

    expect(agent.runs[0]!.interrupts).toEqual([]);
    expect(app!.activeRuns.size).toBe(0);
  });
});
