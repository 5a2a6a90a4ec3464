import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Agent } from 'undici';
import { chatBody } from './benchUpstream.js';
import { timeOne } from './client.js';
import { launchGateway, type Gateway } from './launchGateway.js';
import type { BenchUpstream } from './launchUpstream.js';
import { median, p99 } from './stats.js';

export interface TracingCostRow {
  readonly tracing: 'off' | 'on';
  readonly requests: number;
  readonly median: number;
  readonly p99: number;
  /** CPU time (user + system) of the gateway process per request, in ms. */
  readonly cpuPerRequest: number;
  /** Spans the receiver was sent (0 with tracing off). */
  readonly spansExported: number;
}

/** An OTLP/HTTP receiver on 127.0.0.1 that answers every export and counts the spans of JSON ones. */
async function startReceiver() {
  let spans = 0;
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      spans += (
        Buffer.concat(parts)
          .toString()
          .match(/"spanId"/g) ?? []
      ).length;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans: () => spans,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** A process's CPU time so far (user + system), in ms, from `/proc` (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * What tracing on costs per request: two rxgate processes, one with tracing off and one with the
 * always-on sampler exporting OTLP/HTTP JSON to a local receiver, sent the same streaming
 * requests in turn (sequential, interleaved request by request, the first `warmup` rounds not
 * counted); their latency and the CPU time their process spent per request.
 */
export async function measureTracingCost(
  client: Agent,
  upstream: BenchUpstream,
  { rounds, warmup }: { rounds: number; warmup: number },
): Promise<TracingCostRow[]> {
  const receiver = await startReceiver();
  const gateways: [Gateway, Gateway] = [
    await launchGateway('rxgate', upstream.baseUrl),
    await launchGateway('rxgate', upstream.baseUrl, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_TRACES_SAMPLER: 'always_on',
    }),
  ];
  const body = chatBody({ deltas: 8, everyMs: 0, text: 'Hello ' }, true);
  const samples: [number[], number[]] = [[], []];
  const cpuAtStart: number[] = [];
  for (let round = 0; round < warmup + rounds; round++) {
    if (round === warmup) gateways.forEach((gateway, i) => (cpuAtStart[i] = cpuMs(gateway.child.pid!)));
    for (const [i, gateway] of gateways.entries()) {
      const ms = await timeOne(client, gateway.origin, body);
      if (round >= warmup) samples[i]!.push(ms);
    }
  }
  const cpu = gateways.map((gateway, i) => cpuMs(gateway.child.pid!) - cpuAtStart[i]!);
  // Stopping flushes what the traced one still batches, so that the receiver has counted every span.
  for (const gateway of gateways) await gateway.stop();
  await receiver.close();
  return (['off', 'on'] as const).map((tracing, i) => ({
    tracing,
    requests: rounds,
    median: median(samples[i]!),
    p99: p99(samples[i]!),
    cpuPerRequest: cpu[i]! / rounds,
    spansExported: i === 0 ? 0 : receiver.spans(),
  }));
}
