import { afterEach, describe, expect, it } from 'vitest';
import { createLlmAgent } from '../../../src/agent/llm/createLlmAgent.js';
import { loadConfig } from '../../../src/config.js';
import { startServer, type RunningServer } from '../../../src/http/startServer.js';
import { openResponsesSocket } from '../../support/responsesSocket.js';
import { createScriptedUpstream, endlessAnswer, type ScriptedUpstream } from '../../support/scriptedUpstream.js';

// Shutdown with a Responses WebSocket connection open: the response in flight ends with
// response.incomplete, the upstream request is closed, the connection closes going away (1001).

let upstream: ScriptedUpstream | undefined;
let running: RunningServer | undefined;
afterEach(async () => {
  await running?.shutdown(0);
  await upstream?.close();
  running = undefined;
  upstream = undefined;
});

describe('shutdown with a WebSocket connection open', () => {
  it('ends its response as incomplete, closes the upstream, then closes the connection with 1001', async () => {
    upstream = await createScriptedUpstream([endlessAnswer('tick ')]);
    const agent = createLlmAgent({ baseUrl: upstream.baseUrl, model: 'up', tools: [] });
    running = await startServer({ agent, config: loadConfig({ RXGATE_PORT: '0' }) });
    const socket = openResponsesSocket(running.url);
    socket.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'Go on forever' });
    await socket.arrival('response.output_text.delta');

    await running.shutdown(0);
    expect(await socket.closed).toBe(1001);
    expect(socket.events.at(-1)).toMatchObject({ type: 'response.incomplete' });
    expect((await (await upstream.request(0)).closed).finished).toBe(false);
  });
});
