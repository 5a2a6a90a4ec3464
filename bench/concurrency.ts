import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { Agent } from 'undici';
import { chatBody } from './benchUpstream.js';
import { answerOf, postChat } from './client.js';
import type { GatewayStats } from './gateway.js';
import type { Gateway } from './launchGateway.js';
import type { BenchUpstream } from './launchUpstream.js';
import { median } from './stats.js';

/** Descriptors a gateway process may need for itself (listening socket, IPC, epoll, stdio, idle upstream sockets), besides two per stream. */
export const OWN_FILES = 100;

/** The most streams a gateway can hold open at once under its descriptor limit: each holds two sockets there, the client's and the upstream's. */
export const streamsThatFit = (fileLimit: number) => Math.floor((fileLimit - OWN_FILES) / 2);

export interface ConcurrencyPlan {
  /** Streams asked for; fewer when the gateway's descriptor limit cannot hold them all at once (`streamsThatFit`). */
  readonly streams: number;
  readonly deltas: number;
  readonly everyMs: number;
  /** New streams per second while they open. */
  readonly openPerSecond: number;
  /** The most streams that may be waiting for their first delta at once: the load generator never queues more connects than this. */
  readonly maxOpening: number;
  /** Longest the upstream holds the open streams while the rest open (from the first request); then they go on anyway. */
  readonly holdMs: number;
  /** Longest the whole measurement may take; streams still running then fail. */
  readonly deadlineMs: number;
}

export interface Delay {
  readonly p99: number;
  readonly max: number;
}

export interface ConcurrencyRow {
  readonly target: string;
  readonly requested: number;
  readonly streams: number;
  /** The gateway's `ulimit -n`, from which `streams` was cut down when `requested` did not fit. */
  readonly fileLimit: number | null;
  readonly completed: number;
  /** Why the other streams did not complete: the client's error code (`UND_ERR_CONNECT_TIMEOUT`, `ECONNRESET`, ...) and when, `HTTP <status>` or `wrong bytes`. */
  readonly failures: Record<string, number>;
  /** From the first request until every stream had its first delta (or had failed), seconds. */
  readonly openSeconds: number;
  /** Streams open at the hold, as each process saw them: the client's with their first delta, the gateway's open responses, the upstream's held streams. */
  readonly openAtHold: { readonly client: number; readonly gateway: number; readonly upstream: number };
  /** Each stream's time from the release to its last byte, seconds; planned: `plannedSeconds` at most. */
  readonly finishMedian: number;
  readonly finishMax: number;
  readonly plannedSeconds: number;
  /** From the release to the last stream's end, seconds. */
  readonly streamingSeconds: number;
  readonly idle: GatewayStats;
  /** Sampled at the hold, every stream open, after a full GC. */
  readonly loaded: GatewayStats;
  /**
   * The gateway's event-loop delay, ms: while the streams opened and were held, then from the release
   * until the first stream ended (every stream open, deltas flowing). Not after: released together,
   * the streams all end within `everyMs`, a burst of closes no real load has.
   */
  readonly openingDelay: Delay;
  readonly streamingDelay: Delay;
  readonly rssPerStream: number;
  readonly heapPerStream: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** What a failed request's error says: its code (a DOMException's is a number), else its name. */
function failureOf(error: unknown): string {
  const { code, name } = error as { code?: unknown; name?: unknown };
  return typeof code === 'string' ? code : typeof name === 'string' ? name : String(error);
}

/**
 * `streams` concurrent streams of `deltas` deltas, all open at the same time: the upstream sends
 * each one's first delta at once and holds it there until the client has seen every stream's first
 * delta (or `holdMs` passed), then releases them all to send the rest, one delta every `everyMs`.
 * Memory and the open counts are sampled during the hold; every stream must end with the exact text.
 */
export async function measureConcurrency(
  client: Agent,
  gateway: Gateway,
  upstream: BenchUpstream,
  plan: ConcurrencyPlan,
): Promise<ConcurrencyRow> {
  const { deltas, everyMs, openPerSecond, maxOpening, holdMs, deadlineMs } = plan;
  const idle = await gateway.stats({ gc: true });
  // Leaves the GC's pause out of the opening phase's delay.
  await gateway.stats({ resetDelay: true });
  const streams = idle.fileLimit === null ? plan.streams : Math.min(plan.streams, streamsThatFit(idle.fileLimit));
  const text = 'abc ';
  const expected = text.repeat(deltas);
  const hold = randomUUID();
  const body = chatBody({ deltas, everyMs, text, hold }, true);
  const deadline = AbortSignal.timeout(deadlineMs);
  setMaxListeners(streams + 10, deadline);

  let waiting = 0;
  let open = 0;
  let wake: (() => void) | undefined;
  const progress = () => {
    wake?.();
    wake = undefined;
  };
  const progressed = () => new Promise<void>((resolve) => (wake = resolve));
  const ends: number[] = [];
  let onEnd: (() => void) | undefined;
  const one = async (): Promise<string> => {
    let opened = false;
    try {
      const response = await postChat(client, gateway.origin, body, deadline, true);
      response.body.setEncoding('utf8');
      let received = '';
      for await (const part of response.body as AsyncIterable<string>) {
        received += part;
        if (!opened && received.includes(text)) {
          opened = true;
          waiting--;
          open++;
          progress();
        }
      }
      if (response.statusCode !== 200) return `HTTP ${response.statusCode}`;
      const { content, clean } = answerOf(received);
      ends.push(performance.now());
      return clean && content === expected ? 'ok' : 'wrong bytes';
    } catch (error) {
      return `${failureOf(error)} ${opened ? 'after' : 'before'} the first delta`;
    } finally {
      onEnd?.();
      if (opened) open--;
      else {
        waiting--;
        progress();
      }
    }
  };

  const started = performance.now();
  const results: Promise<string>[] = [];
  for (let i = 0; i < streams && !deadline.aborted; i++) {
    while (waiting >= maxOpening) await progressed();
    const due = started + (i * 1000) / openPerSecond - performance.now();
    if (due > 4) await sleep(due);
    waiting++;
    results.push(one());
  }
  const holdUntil = started + holdMs;
  while (waiting > 0 && performance.now() < holdUntil) await Promise.race([progressed(), sleep(holdUntil - performance.now())]);
  const openSeconds = (performance.now() - started) / 1000;
  const openAtClient = open;
  const opening = await gateway.stats({ resetDelay: true });
  const loaded = await gateway.stats({ gc: true });
  // Leaves the GC's pause out of the streaming phase's delay.
  await gateway.stats({ resetDelay: true });
  const firstEnd = new Promise<void>((resolve) => (onEnd = resolve));
  const openAtUpstream = await upstream.release(hold);
  const released = performance.now();
  // Every stream may have failed before the release.
  await Promise.race([firstEnd, Promise.all(results)]);
  const streaming = await gateway.stats();
  const outcomes = await Promise.all(results);

  const failures: Record<string, number> = {};
  for (const outcome of outcomes) if (outcome !== 'ok') failures[outcome] = (failures[outcome] ?? 0) + 1;
  const finishes = ends.map((end) => (end - released) / 1000);
  return {
    target: gateway.kind,
    requested: plan.streams,
    streams,
    fileLimit: idle.fileLimit,
    completed: outcomes.filter((outcome) => outcome === 'ok').length,
    failures,
    openSeconds,
    openAtHold: { client: openAtClient, gateway: loaded.openResponses, upstream: openAtUpstream },
    finishMedian: median(finishes),
    finishMax: Math.max(...finishes),
    plannedSeconds: (deltas * everyMs) / 1000,
    streamingSeconds: (Math.max(...ends) - released) / 1000,
    idle,
    loaded,
    openingDelay: { p99: opening.loopDelayP99, max: opening.loopDelayMax },
    streamingDelay: { p99: streaming.loopDelayP99, max: streaming.loopDelayMax },
    rssPerStream: (loaded.rss - idle.rss) / Math.max(1, loaded.openResponses),
    heapPerStream: (loaded.heapUsed - idle.heapUsed) / Math.max(1, loaded.openResponses),
  };
}
