import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { Worker } from 'node:worker_threads';

/** A port whose listener accepts nothing: a connection to it never opens, so only a connect timeout ends it. */
export interface UnacceptingUpstream {
  readonly baseUrl: string;
  close(): Promise<void>;
}

// Linux queues backlog + 1 handshaken connections for a listener that does not accept, then drops every SYN.
const BACKLOG = 1;

// The listener lives on a thread that never returns to its event loop, so nothing ever accepts.
const LISTENER = `
const { parentPort, workerData: release } = require('node:worker_threads');
const { createServer } = require('node:net');
const server = createServer();
server.listen({ port: 0, host: '127.0.0.1', backlog: ${BACKLOG} }, () => {
  parentPort.postMessage(server.address().port);
  Atomics.wait(release, 0, 0);
  server.close();
});
`;

/**
 * A listener held on a blocked worker thread of the test process, its backlog filled by connections
 * this side keeps open: a request to it waits for a connection that never comes, and only the
 * caller's connect timeout ends it, every time.
 */
export async function createUnacceptingUpstream(): Promise<UnacceptingUpstream> {
  const release = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(LISTENER, { eval: true, workerData: release });
  const [port] = (await once(worker, 'message')) as [number];
  const fillers: Socket[] = [];
  for (let filled = 0; filled <= BACKLOG; filled++) {
    const socket = connect(port, '127.0.0.1');
    fillers.push(socket);
    await once(socket, 'connect');
  }
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    async close() {
      for (const socket of fillers) socket.destroy();
      Atomics.store(release, 0, 1);
      Atomics.notify(release, 0);
      await once(worker, 'exit');
    },
  };
}
