import { describe, expect, it } from 'vitest';
import { openResponsesSocket } from '../../support/responsesSocket.js';
import { endlessAnswer } from '../../support/scriptedUpstream.js';
import { useStartedServer } from '../../support/startedServer.js';

// Shutdown with a Responses WebSocket connection open: the response in flight ends with
// response.incomplete, the upstream request is closed, the connection closes going away (1001).

const servers = useStartedServer();

describe('shutdown with a WebSocket connection open', () => {
  it('ends its response as incomplete, closes the upstream, then closes the connection with 1001', async () => {
    const running = await servers.start([endlessAnswer('tick ')]);
    const socket = openResponsesSocket(running.url);
    socket.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'Go on forever' });
    await socket.arrival('response.output_text.delta');

    await running.shutdown(0);
    expect(await socket.closed).toBe(1001);
    expect(socket.events.at(-1)).toMatchObject({ type: 'response.incomplete' });
    expect((await (await servers.upstream!.request(0)).closed).finished).toBe(false);
  });
});
