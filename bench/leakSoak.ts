import type { Agent } from 'undici';
import { chatBody } from './benchUpstream.js';
import { createFrameCounter, postChat } from './client.js';
import type { GatewayStats } from './gateway.js';
import type { Gateway } from './launchGateway.js';
import type { BenchUpstream } from './launchUpstream.js';

export interface SoakResult {
  readonly target: string;
  readonly planned: number;
  readonly aborted: number;
  /** Aborts whose upstream socket had not closed within a second. */
  readonly unseen: number;
  readonly errors: number;
  readonly seconds: number;
  readonly before: GatewayStats;
  readonly after: GatewayStats;
  /** Polls until the resources were back to `before` (or gave up). */
  readonly settleMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const total = (resources: Record<string, number>) => Object.values(resources).reduce((sum, n) => sum + n, 0);

/**
 * `streams` streams, `concurrency` at a time, each aborted by its client at a random point: half
 * while the upstream is still silent before its first token, half while tokens stream. Each abort
 * happens after the upstream has the request, and must reach it as a closed socket.
 */
export async function soakAborts(
  createClient: () => Agent,
  gateway: Gateway,
  upstream: BenchUpstream,
  { streams, concurrency, timeLimitMs }: { streams: number; concurrency: number; timeLimitMs: number },
): Promise<SoakResult> {
  const before = await gateway.stats({ gc: true });
  const client = createClient();
  let next = 0;
  let aborted = 0;
  let unseen = 0;
  let errors = 0;
  const started = performance.now();

  const one = async (n: number) => {
    const id = `soak-${n}`;
    const silent = n % 2 === 0;
    const scenario = silent ? { id, deltas: 50, everyMs: 2, silentMs: 200 } : { id, deltas: 500, everyMs: 1 };
    const controller = new AbortController();
    try {
      const response = await postChat(client, gateway.origin, chatBody(scenario, true), controller.signal);
      response.body.on('error', () => undefined);
      const visit = await upstream.visit(id);
      const counter = createFrameCounter();
      response.body.on('data', (part: Buffer) => counter.feed(part));
      await sleep(silent ? Math.random() * 100 : 5 + Math.random() * 50);
      controller.abort();
      aborted++;
      const closed = await Promise.race([visit.closed, sleep(1_000)]);
      if (!closed) unseen++;
    } catch {
      errors++;
      upstream.forget(id);
    }
  };
  const worker = async () => {
    while (next < streams && performance.now() - started < timeLimitMs) await one(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  await client.close();

  const settleStarted = performance.now();
  let after = await gateway.stats({ gc: true });
  while ((total(after.resources) > total(before.resources) || after.activeRuns) && performance.now() - settleStarted < 10_000) {
    await sleep(250);
    after = await gateway.stats({ gc: true });
  }
  return {
    target: gateway.kind,
    planned: streams,
    aborted,
    unseen,
    errors,
    seconds,
    before,
    after,
    settleMs: performance.now() - settleStarted,
  };
}
