import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent } from 'undici';
import { chatBody } from './benchUpstream.js';
import { postChat, timeOne } from './client.js';
import { launchGateway, type Gateway } from './launchGateway.js';
import type { BenchUpstream } from './launchUpstream.js';
import { median, p99 } from './stats.js';

/** Which way a request reached the bench upstream. */
export type RoutingPath =
  'single upstream' | 'routes file, two targets' | 'first target answers 503' | 'first target refuses the connection';

export interface RoutingCostRow {
  readonly path: RoutingPath;
  /** `non-streaming` and `streaming`: timed to the last byte; `first content`: streaming, timed to the first text delta. */
  readonly measure: 'non-streaming' | 'streaming' | 'first content';
  readonly requests: number;
  readonly median: number;
  readonly p99: number;
}

const TEXT = 'Hello ';

/** A streaming request, from the call to the first byte of its first text delta, in ms (the SSE headers and keepalives come before it). */
async function timeFirstContent(client: Agent, origin: string, body: string): Promise<number> {
  const started = performance.now();
  const response = await postChat(client, origin, body);
  if (response.statusCode !== 200) throw new Error(`${origin} answered ${response.statusCode}`);
  let seen = '';
  let at: number | undefined;
  for await (const part of response.body) {
    seen += (part as Buffer).toString('utf8');
    if (at === undefined && seen.includes(TEXT)) at = performance.now() - started;
  }
  if (at === undefined) throw new Error(`${origin} sent no content`);
  return at;
}

/** An upstream that answers every request 503 with the OpenAI error envelope. */
async function startUnavailable(): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      res
        .writeHead(503, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'overloaded', type: 'server_error', code: null, param: null } })),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

/** A loopback URL on which nothing listens: a port that was just given and closed again. */
async function refusingUrl(): Promise<string> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/v1`;
}

/**
 * A routes file whose model `bench` goes to `primary`, then to the bench upstream. The breaker never
 * opens (else, after three failures, the primary would be skipped for its cooldown and no request
 * would fail over), so that every request pays for the failover.
 */
function routesFile(primaryUrl: string, backupUrl: string): string {
  return JSON.stringify({
    upstreams: [
      { id: 'primary', url: primaryUrl },
      { id: 'backup', url: backupUrl },
    ],
    models: [
      {
        name: 'bench',
        targets: [
          { upstream: 'primary', model: 'bench' },
          { upstream: 'backup', model: 'bench' },
        ],
      },
    ],
    breaker: { failures: 1_000_000_000, cooldownMs: 1 },
  });
}

/**
 * What routing costs: four rxgate processes, one on the single-upstream path (`RXGATE_UPSTREAM_*`
 * as today) and three with a routes file of two targets whose first is the bench upstream, a 503,
 * or a closed port; the same requests sent to each in turn (sequential, interleaved request by
 * request, the first `warmup` rounds not counted). The healthy route is timed as the single path
 * is, to the last byte; all four are timed to the first content, which after a failover is the
 * second target's.
 */
export async function measureRoutingCost(
  client: Agent,
  upstream: BenchUpstream,
  { rounds, warmup }: { rounds: number; warmup: number },
): Promise<RoutingCostRow[]> {
  const unavailable = await startUnavailable();
  const dir = await mkdtemp(join(tmpdir(), 'rxgate-bench-routes-'));
  const primaries: [RoutingPath, string][] = [
    ['routes file, two targets', upstream.baseUrl],
    ['first target answers 503', `http://127.0.0.1:${(unavailable.address() as AddressInfo).port}/v1`],
    ['first target refuses the connection', await refusingUrl()],
  ];
  const gateways: [RoutingPath, Gateway][] = [['single upstream', await launchGateway('rxgate', upstream.baseUrl)]];
  for (const [i, [path, primaryUrl]] of primaries.entries()) {
    const file = join(dir, `routes-${i}.json`);
    await writeFile(file, routesFile(primaryUrl, upstream.baseUrl));
    gateways.push([path, await launchGateway('rxgate', upstream.baseUrl, { RXGATE_ROUTES_FILE: file })]);
  }
  const bodies = {
    'non-streaming': chatBody({ deltas: 8, everyMs: 0, text: TEXT }, false),
    streaming: chatBody({ deltas: 8, everyMs: 0, text: TEXT }, true),
  };
  const healthy = gateways.slice(0, 2);
  const samples = new Map<string, number[]>();
  const add = (path: RoutingPath, measure: RoutingCostRow['measure'], ms: number) => {
    const key = `${path}\n${measure}`;
    samples.set(key, [...(samples.get(key) ?? []), ms]);
  };
  for (let round = 0; round < warmup + rounds; round++) {
    const counted = round >= warmup;
    for (const mode of ['non-streaming', 'streaming'] as const) {
      for (const [path, gateway] of healthy) {
        const ms = await timeOne(client, gateway.origin, bodies[mode]);
        if (counted) add(path, mode, ms);
      }
    }
    for (const [path, gateway] of gateways) {
      const ms = await timeFirstContent(client, gateway.origin, bodies.streaming);
      if (counted) add(path, 'first content', ms);
    }
  }
  for (const [, gateway] of gateways) await gateway.stop();
  await new Promise((resolve) => unavailable.close(resolve));
  await rm(dir, { recursive: true });
  return [...samples].map(([key, own]) => {
    const [path, measure] = key.split('\n') as [RoutingPath, RoutingCostRow['measure']];
    return { path, measure, requests: own.length, median: median(own), p99: p99(own) };
  });
}
