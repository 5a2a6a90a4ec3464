import { afterEach, describe, expect, it } from 'vitest';
import { createLlmAgent } from '../../../src/agent/llm/createLlmAgent.js';
import { createScriptedUpstream, endlessAnswer, type ScriptedUpstream } from '../../support/scriptedUpstream.js';
import { startApp, type TestApp } from '../../support/startApp.js';
import { heapAfterGc } from '../../support/heapAfterGc.js';

// A streaming chat completion holds no copy of what it sent. The one text it keeps is the LLM
// agent's current turn, which goes back to the model if the turn calls tools: kept flat, about a
// byte per character, where `+=` kept a rope node per delta (16 bytes a character for 2-character
// deltas). Measured, not timed.

let upstream: ScriptedUpstream | undefined;
let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  await upstream?.close();
  app = upstream = undefined;
});

describe('streaming chat memory', () => {
  it('grows by a few bytes per character at most (the current turn, kept flat for the tool loop), not a rope node per delta', async () => {
    const DELTA = 'ab';
    upstream = await createScriptedUpstream([endlessAnswer(DELTA)]);
    const agent = createLlmAgent({ baseUrl: upstream.baseUrl, model: 'up-model', tools: [] });
    app = await startApp(agent, { maxOutputChars: 10_000_000 });
    const response = await fetch(`${app.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ stream: true, messages: [{ role: 'user', content: 'never stop' }] }),
    });
    const reader = response.body!.getReader();
    // Frames are counted, not kept: the client must not be what grows.
    let frames = 0;
    const readFrames = async (until: number) => {
      while (frames < until) {
        const { value } = await reader.read();
        // Each frame ends with a blank line and has no other line break.
        for (let at = value!.indexOf(0x0a); at >= 0; at = value!.indexOf(0x0a, at + 1)) frames += 0.5;
      }
    };
    await readFrames(10_000);
    const before = heapAfterGc();
    const framesBefore = frames;
    await readFrames(70_000);
    const grown = heapAfterGc() - before;
    const chars = (frames - framesBefore) * DELTA.length;
    await reader.cancel();

    console.info(
      `streaming chat: heap ${(grown / 1024 / 1024).toFixed(1)} MiB over ${chars} characters (${(grown / chars).toFixed(2)} B/char)`,
    );
    expect(grown / chars).toBeLessThan(5);
  });
});
