/**
 * Memory per idle open stream, for measuring a cut: `node --expose-gc --import tsx bench/probeMemory.ts [kind] [streams]`.
 * Opens `streams` streams whose upstream sent its headers and then nothing, samples the gateway
 * after a full GC against itself idle, and aborts them all.
 */
import { setMaxListeners } from 'node:events';
import { chatBody } from './benchUpstream.js';
import { createClient, postChat } from './client.js';
import type { GatewayKind } from './gateway.js';
import { launchGateway } from './launchGateway.js';
import { launchUpstream } from './launchUpstream.js';

const kind = (process.argv[2] ?? 'rxgate') as GatewayKind;
const streams = Number(process.argv[3] ?? 1000);
const upstream = await launchUpstream();
const gateway = await launchGateway(kind, upstream.baseUrl);
const client = createClient();
const controller = new AbortController();
setMaxListeners(streams + 10, controller.signal);
const open = (n: number) =>
  Promise.all(
    Array.from({ length: n }, (_, i) =>
      postChat(
        client,
        gateway.origin,
        chatBody({ id: `probe-${n}-${i}`, deltas: 1, everyMs: 0, stall: true }, true),
        controller.signal,
      ).then((response) => response.body.on('error', () => undefined)),
    ),
  );
// Warm the process with a few streams first, then drop them.
await open(50);
const snapshots = process.env.PROBE_SNAPSHOTS;
const idle = await gateway.stats({ gc: true, ...(snapshots ? { heapSnapshot: `${snapshots}/idle.heapsnapshot` } : {}) });
await open(streams);
while ((await gateway.stats()).openResponses < streams + 50) await new Promise((resolve) => setTimeout(resolve, 100));
const loaded = await gateway.stats({ gc: true, ...(snapshots ? { heapSnapshot: `${snapshots}/loaded.heapsnapshot` } : {}) });
const per = (a: number, b: number) => ((b - a) / streams / 1024).toFixed(1);
console.log(
  JSON.stringify({ kind, streams, heapPerStreamKiB: per(idle.heapUsed, loaded.heapUsed), rssPerStreamKiB: per(idle.rss, loaded.rss) }),
);
controller.abort();
await client.close().catch(() => undefined);
await gateway.stop();
await upstream.close();
