import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { finish, say, ScriptedAgent } from '../../support/scriptedAgent.js';
import { sseEvents } from '../../support/sseEvents.js';
import { startApp, type TestApp } from '../../support/startApp.js';

// A finished run with a 16 MiB log, replayed to connections that never read: each is held to
// about one page of the log, not sent the whole backlog at once.

const DELTA = 'x'.repeat(2_048);
const DELTAS = 8_192;
let app: TestApp | undefined;
const clients: Socket[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  await app?.close();
  app = undefined;
});

/** A client that asks for the run's events and then never reads a byte. */
async function stalledFollower(url: string, runId: string): Promise<Socket> {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  clients.push(socket);
  await once(socket, 'connect');
  socket.write(`GET /v1/runs/${runId}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  socket.pause();
  return socket;
}

/** Resolves once the server has written nothing more to any connection for `quietMs`. */
async function settled(sockets: readonly Socket[], quietMs = 300): Promise<void> {
  let before = -1;
  for (;;) {
    const written = sockets.reduce((sum, socket) => sum + socket.bytesWritten, 0);
    if (written === before) return;
    before = written;
    await new Promise((resolve) => setTimeout(resolve, quietMs));
  }
}

describe('replaying a long event log', () => {
  it('holds each subscriber that does not read to about one page of the backlog', async () => {
    app = await startApp(new ScriptedAgent([...Array.from({ length: DELTAS }, () => say(DELTA)), finish()]), {
      maxOutputChars: 100_000_000,
    });
    const served: Socket[] = [];
    app.server.on('connection', (socket: Socket) => served.push(socket));
    const { run_id } = (await (await fetch(`${app.url}/v1/runs`, { method: 'POST', body: '{"input":"hi"}' })).json()) as { run_id: string };
    let logged = 0;
    for await (const event of sseEvents((await fetch(`${app.url}/v1/runs/${run_id}/events`)).body!)) {
      if (event.event === 'message.delta') logged++;
    }
    expect(logged).toBe(DELTAS);

    const stalled = await Promise.all(Array.from({ length: 5 }, () => stalledFollower(app!.url, run_id)));
    const ports = new Set(stalled.map((socket) => socket.localPort));
    let followers: Socket[] = [];
    while (followers.length < stalled.length) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      followers = served.filter((socket) => ports.has(socket.remotePort));
    }
    await settled(followers);
    for (const socket of followers) {
      // Held in the process, beyond what the kernel took: a page of 256 events, not the 16 MiB log.
      expect(socket.writableLength).toBeLessThan(1_024 * 1_024);
      expect(socket.destroyed).toBe(false);
    }
    // A reader that comes back later still gets every event.
    const late = stalled[0]!;
    let deltas = 0;
    let tail = '';
    const completed = new Promise<void>((resolve) =>
      late.on('data', (chunk: Buffer) => {
        const text = tail + chunk.toString('latin1');
        deltas += text.split('event: message.delta\n').length - 1;
        if (text.includes('event: run.completed\n')) resolve();
        // A frame name cut in two by a chunk boundary is counted in the next chunk.
        const cut = text.lastIndexOf('\n');
        tail = text.slice(cut + 1, cut + 1 + 32);
      }),
    );
    late.resume();
    await completed;
    expect(deltas).toBe(DELTAS);
  }, 60_000);
});
