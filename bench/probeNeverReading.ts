/**
 * Where the memory of clients that never read goes: `node --import tsx bench/probeNeverReading.ts [clients] [megabytes]`.
 * Half the clients ask for a streaming chat completion, half for a streaming response, each a
 * `megabytes` MB answer, and never read a byte. Samples the gateway's process (heap, external,
 * RSS) while they are cut off, and the kernel's socket buffers on both sides (`ss -tm`), which no
 * process's RSS counts. `PROBE_GC=1` collects garbage before each sample, so that the peak is live memory.
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { launchGateway } from './launchGateway.js';
import { launchUpstream } from './launchUpstream.js';

const clients = Number(process.argv[2] ?? 20);
const megabytes = Number(process.argv[3] ?? 20);
const upstream = await launchUpstream();
const gateway = await launchGateway('rxgate', upstream.baseUrl, { RXGATE_MAX_OUTPUT_CHARS: String(megabytes * 1_000_000 + 1) });
const { hostname, port } = new URL(gateway.origin);
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** Bytes queued in the kernel for the gateway's client sockets: `[gateway side, client side]`. */
function kernelBytes(): [number, number] {
  const out = execFileSync('ss', ['-tmnH', `( sport = :${port} or dport = :${port} )`]).toString();
  const sides: [number, number] = [0, 0];
  for (const entry of out.split(/\n(?=\S)/)) {
    const fields = entry.trim().split(/\s+/);
    const skmem = /skmem:\(r(\d+),rb\d+,t(\d+),tb\d+,f\d+,w(\d+)/.exec(entry);
    if (!skmem) continue;
    // The local address is the fourth field: the gateway's side listens on its port.
    sides[(fields[3] ?? '').endsWith(`:${port}`) ? 0 : 1] += Number(skmem[1]) + Number(skmem[2]) + Number(skmem[3]);
  }
  return sides;
}

function request(path: string, body: object): string {
  const json = JSON.stringify(body);
  return `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`;
}

const idle = await gateway.stats({ gc: true });
const scenario = JSON.stringify({ deltas: megabytes * 1000, everyMs: 0, text: 'x'.repeat(1000) });
const sockets: Socket[] = [];
for (let i = 0; i < clients; i++) {
  const socket = connect({ host: hostname, port: Number(port) });
  await once(socket, 'connect');
  socket.pause();
  socket.write(
    i % 2 === 0
      ? request('/v1/chat/completions', { model: 'bench', stream: true, messages: [{ role: 'user', content: scenario }] })
      : request('/v1/responses', { model: 'bench', stream: true, store: false, input: scenario }),
  );
  sockets.push(socket);
}
let peak = idle;
let peakKernel: [number, number] = [0, 0];
for (;;) {
  const stats = await gateway.stats({ gc: process.env.PROBE_GC === '1' });
  if (stats.rss > peak.rss) peak = stats;
  const kernel = kernelBytes();
  if (kernel[0] + kernel[1] > peakKernel[0] + peakKernel[1]) peakKernel = kernel;
  if (stats.openResponses === 0 && stats.activeRuns === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 20));
}
const ended = await gateway.stats({ gc: true });
const endedKernel = kernelBytes();
for (const socket of sockets) socket.destroy();
const row = (label: string, stats: typeof idle, kernel: [number, number]) =>
  console.log(
    `${label}: RSS +${mib(stats.rss - idle.rss)} MiB, heap +${mib(stats.heapUsed - idle.heapUsed)}, external +${mib(stats.external - idle.external)} (ArrayBuffers +${mib(stats.arrayBuffers - idle.arrayBuffers)}); kernel socket buffers: gateway side ${mib(kernel[0])} MiB, client side ${mib(kernel[1])} MiB`,
  );
console.log(`${clients} clients that never read, ${megabytes} MB answers each, RXGATE_MAX_BUFFERED_BYTES 1 MiB`);
row('peak RSS while they were cut off', peak, peakKernel);
row('every stream cut off, after a full GC', ended, endedKernel);
await gateway.stop();
await upstream.close();
