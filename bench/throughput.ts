import type { Agent } from 'undici';
import { chatBody } from './benchUpstream.js';
import { createFrameCounter, postChat } from './client.js';
import { cpuNanos } from './cpuNanos.js';
import { median } from './stats.js';

/** CPU time per frame received, in ns, of the three processes a stream runs through. */
export interface CpuPerFrame {
  /** The target's process (the gateway or relay under test), its main thread: one stream's serial path. */
  readonly relay: number;
  /** The same, all its threads. */
  readonly relayAllThreads: number;
  /** The bench upstream's process, all its threads. */
  readonly upstream: number;
  /** The bench's own process, which reads the stream and counts its frames, all its threads. */
  readonly client: number;
}

export interface ThroughputRow {
  readonly target: string;
  /** Frames per second, one value per round. */
  readonly rates: number[];
  readonly median: number;
  /** The medians over the rounds (absent from results measured before it was). */
  readonly cpuPerFrame?: CpuPerFrame;
}

export interface ThroughputTarget {
  readonly name: string;
  readonly origin: string;
  /** The target's process. */
  readonly pid: number;
}

interface StreamSample {
  readonly rate: number;
  readonly cpuPerFrame: CpuPerFrame;
}

const processes = (target: ThroughputTarget, upstreamPid: number) => ({
  relay: cpuNanos(target.pid),
  upstream: cpuNanos(upstreamPid).allThreads,
  client: cpuNanos(process.pid).allThreads,
});

/** One stream of `deltas` flat-out deltas: frames received per second, first byte of the request to last byte of the body, and each process's CPU per frame. */
async function oneStream(client: Agent, target: ThroughputTarget, upstreamPid: number, deltas: number): Promise<StreamSample> {
  const counter = createFrameCounter();
  const before = processes(target, upstreamPid);
  const started = performance.now();
  const response = await postChat(client, target.origin, chatBody({ deltas, everyMs: 0, text: 'x' }, true));
  for await (const part of response.body) counter.feed(part);
  const seconds = (performance.now() - started) / 1000;
  const after = processes(target, upstreamPid);
  // role + deltas + finish + usage + [DONE]
  if (counter.count < deltas + 2) throw new Error(`${target.origin} delivered ${counter.count} frames of ${deltas + 4}`);
  const perFrame = (used: number) => used / counter.count;
  return {
    rate: counter.count / seconds,
    cpuPerFrame: {
      relay: perFrame(after.relay.mainThread - before.relay.mainThread),
      relayAllThreads: perFrame(after.relay.allThreads - before.relay.allThreads),
      upstream: perFrame(after.upstream - before.upstream),
      client: perFrame(after.client - before.client),
    },
  };
}

/** The targets take turns, one stream each per round, so that drift in the machine's load is shared. */
export async function measureThroughput(
  client: Agent,
  targets: readonly ThroughputTarget[],
  upstreamPid: number,
  { deltas, rounds }: { deltas: number; rounds: number },
): Promise<ThroughputRow[]> {
  const samples = targets.map((): StreamSample[] => []);
  // A full stream each first: the JIT of every process settles before anything counts.
  for (const target of targets) await oneStream(client, target, upstreamPid, deltas);
  for (let round = 0; round < rounds; round++) {
    for (const [i, target] of targets.entries()) samples[i]!.push(await oneStream(client, target, upstreamPid, deltas));
  }
  return targets.map((target, i) => {
    const of = samples[i]!;
    const medianOf = (key: keyof CpuPerFrame) => median(of.map((sample) => sample.cpuPerFrame[key]));
    const rates = of.map((sample) => sample.rate);
    return {
      target: target.name,
      rates,
      median: median(rates),
      cpuPerFrame: {
        relay: medianOf('relay'),
        relayAllThreads: medianOf('relayAllThreads'),
        upstream: medianOf('upstream'),
        client: medianOf('client'),
      },
    };
  });
}
