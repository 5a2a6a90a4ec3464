import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';

/** An address whose listener never accepts, with its accept queue full: a connection to it hangs in the handshake. */
export interface UnacceptingUpstream {
  readonly baseUrl: string;
  close(): Promise<void>;
}

// The listener's process blocks its own event loop (without spinning) once it listens, so it never accepts.
const LISTENER = `
const server = require('node:net').createServer().listen({ host: '127.0.0.1', port: 0, backlog: 1 }, () => {
  process.stdout.write(server.address().port + '\\n');
  setImmediate(() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120000));
});`;

/**
 * A connect timeout on loopback, where a refused or accepted connection is otherwise immediate:
 * Linux completes at most backlog + 1 handshakes that nobody accepts and drops further SYNs, so
 * the next connection waits for a SYN-ACK that does not come.
 */
export async function createUnacceptingUpstream(): Promise<UnacceptingUpstream> {
  const listener = spawn(process.execPath, ['-e', LISTENER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(listener.stdout, 'data')) as [Buffer];
  const port = Number(line.toString().trim());
  const fillers: Socket[] = [];
  for (let queued = 0; queued < 2; queued++) {
    const filler = connect(port, '127.0.0.1');
    fillers.push(filler);
    await once(filler, 'connect');
  }
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    async close() {
      for (const filler of fillers) filler.destroy();
      const exited = once(listener, 'exit');
      listener.kill('SIGKILL');
      await exited;
    },
  };
}
