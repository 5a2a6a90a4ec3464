import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

export interface ProbeAnswer {
  readonly status: number;
  readonly body: unknown;
}

// Plain JavaScript: the thread fetches `path` once told to (after `delayMs` of its own), then raises the flag.
const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
const flag = new Int32Array(workerData.flag);
parentPort.on('message', ({ path, delayMs }) => {
  setTimeout(async () => {
    const response = await fetch(workerData.origin + path);
    parentPort.postMessage({ status: response.status, body: await response.json() });
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  }, delayMs);
});
fetch(workerData.origin + '/health').then((response) => response.arrayBuffer()).then(() => parentPort.postMessage('warm'));
`;

/**
 * A thread of the test process that asks an HTTP origin while this thread's event loop is blocked:
 * `askWhileBlocked` blocks this thread until the answer has arrived there (or `capMs` passed), so an
 * answer proves that whatever served it did not need this thread's loop.
 */
export class ProbeThread {
  readonly #flag = new Int32Array(new SharedArrayBuffer(4));
  readonly #thread: Worker;

  private constructor(origin: string) {
    this.#thread = new Worker(PROBE, { eval: true, workerData: { origin, flag: this.#flag.buffer } });
  }

  /** Started and warm: it has fetched `/health` from `origin` once. */
  static async start(origin: string): Promise<ProbeThread> {
    const probe = new ProbeThread(origin);
    await once(probe.#thread, 'message');
    return probe;
  }

  /** Blocks this thread from now until the answer to `GET path` (asked `delayMs` into the block) is in; undefined when it did not come within `capMs` (it is awaited all the same, once this thread runs again). */
  async askWhileBlocked(path: string, delayMs = 0, capMs = 10_000): Promise<ProbeAnswer | undefined> {
    Atomics.store(this.#flag, 0, 0);
    const answered = once(this.#thread, 'message') as Promise<[ProbeAnswer]>;
    this.#thread.postMessage({ path, delayMs });
    const outcome = Atomics.wait(this.#flag, 0, 0, capMs);
    const [answer] = await answered;
    return outcome === 'timed-out' ? undefined : answer;
  }

  async stop(): Promise<void> {
    await this.#thread.terminate();
  }
}
