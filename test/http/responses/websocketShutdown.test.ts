import { describe, expect, it } from 'vitest';
import { openResponsesSocket } from '../../support/responsesSocket.js';
import { endlessAnswer, frames } from '../../support/scriptedUpstream.js';
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

  it('starts no response in the grace period: an idle connection closes at once, a busy one when its response ends', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const running = await servers.start([
      {
        steps: [
          frames.role(),
          frames.text('Almost'),
          { waitFor: held },
          frames.text(' done'),
          frames.finish('stop'),
          frames.usage(5, 2),
          frames.done(),
        ],
      },
      endlessAnswer('never '),
    ]);
    const busy = openResponsesSocket(running.url);
    const idle = openResponsesSocket(running.url);
    busy.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'Finish this' });
    await busy.arrival('response.output_text.delta');
    // A warm-up (no model call) that ends before shutdown: the connection is open and answers nothing.
    idle.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'Warm up', generate: false } as never);
    await idle.arrival('response.completed');

    const shutdown = running.shutdown(60_000);
    expect(await idle.closed).toBe(1001);
    busy.ws.send({ type: 'response.create', model: 'rxgate-agent', input: 'And one more' });
    release();

    expect(await busy.closed).toBe(1001);
    await shutdown;
    expect(busy.events.filter((event) => event.type === 'response.created')).toHaveLength(1);
    expect(busy.events.at(-1)).toMatchObject({ type: 'response.completed' });
    expect(servers.upstream!.requests).toHaveLength(1);
  });
});
