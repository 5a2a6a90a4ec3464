/**
 * The health thread (a worker started by `startHealthServer`): answers `GET /health` and
 * `GET /health/ready` on a port of its own, on an event loop of its own, so that a main loop busy
 * with a burst of requests does not keep an orchestrator's probe waiting. It judges the main loop by
 * its heartbeat, and asks it the rest of readiness only when that loop is keeping up.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { readPulse } from './heartbeat.js';
import type { HealthThreadData, HealthThreadMessage, ReadinessAnswer } from './healthThreadProtocol.js';
import { overloadReason, stalledReason } from './pulseVerdicts.js';

const data = workerData as HealthThreadData;
const main = parentPort!;
const tell = (message: HealthThreadMessage) => main.postMessage(message);

const waiting = new Map<number, (answer: ReadinessAnswer | undefined) => void>();
let lastId = 0;
main.on('message', (answer: ReadinessAnswer) => waiting.get(answer.id)?.(answer));

/** What the main thread's `Readiness` says, or undefined when it did not answer within `askTimeoutMs`. */
function askMainThread(): Promise<ReadinessAnswer | undefined> {
  const id = ++lastId;
  return new Promise((resolve) => {
    const timer = setTimeout(() => settle(undefined), data.askTimeoutMs);
    const settle = (answer: ReadinessAnswer | undefined) => {
      clearTimeout(timer);
      waiting.delete(id);
      resolve(answer);
    };
    waiting.set(id, settle);
    tell({ type: 'ask', id });
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
    'Cache-Control': 'no-store',
  });
  res.end(json);
}

function live(res: ServerResponse): void {
  const stalled = stalledReason(readPulse(data.memory), Date.now(), data);
  if (stalled) send(res, 503, { status: 'stalled', reasons: [stalled] });
  else send(res, 200, { status: 'ok' });
}

async function ready(res: ServerResponse): Promise<void> {
  const overloaded = overloadReason(readPulse(data.memory), Date.now(), data);
  if (overloaded) return send(res, 503, { status: 'not_ready', reasons: [overloaded] });
  const answer = await askMainThread();
  if (!answer) return send(res, 503, { status: 'not_ready', reasons: [`event loop: did not answer within ${data.askTimeoutMs} ms`] });
  if (answer.reasons.length === 0) send(res, 200, { status: 'ready', ...answer.details });
  else send(res, 503, { status: 'not_ready', reasons: answer.reasons, ...answer.details });
}

const server = createServer((req, res) => {
  const path = req.url?.split('?', 1)[0];
  if (req.method === 'GET' && path === '/health') return live(res);
  if (req.method === 'GET' && path === '/health/ready') return void ready(res);
  send(res, 404, {
    error: {
      message: `no route for ${req.method} ${path}: this port answers GET /health and GET /health/ready only`,
      type: 'not_found_error',
      param: null,
      code: 'unknown_url',
    },
  });
});
server.on('clientError', (_error, socket) => socket.destroy());
server.on('error', (error: NodeJS.ErrnoException) => tell({ type: 'failed', code: error.code, message: error.message }));
server.listen(data.port, data.host, () => tell({ type: 'listening', port: (server.address() as AddressInfo).port }));
