import type { Agent } from 'undici';
import { chatBody } from './benchUpstream.js';
import { createFrameCounter, postChat } from './client.js';
import { median } from './stats.js';

export interface ThroughputRow {
  readonly target: string;
  /** Frames per second, one value per round. */
  readonly rates: number[];
  readonly median: number;
}

/** One stream of `deltas` flat-out deltas; frames received per second, first byte of the request to last byte of the body. */
async function oneStream(client: Agent, origin: string, deltas: number): Promise<number> {
  const counter = createFrameCounter();
  const started = performance.now();
  const response = await postChat(client, origin, chatBody({ deltas, everyMs: 0, text: 'x' }, true));
  for await (const part of response.body) counter.feed(part);
  const seconds = (performance.now() - started) / 1000;
  // role + deltas + finish + usage + [DONE]
  if (counter.count < deltas + 2) throw new Error(`${origin} delivered ${counter.count} frames of ${deltas + 4}`);
  return counter.count / seconds;
}

/** The targets take turns, one stream each per round, so that drift in the machine's load is shared. */
export async function measureThroughput(
  client: Agent,
  targets: readonly { name: string; origin: string }[],
  { deltas, rounds }: { deltas: number; rounds: number },
): Promise<ThroughputRow[]> {
  const rates = targets.map((): number[] => []);
  // A full stream each first: the JIT of every process settles before anything counts.
  for (const target of targets) await oneStream(client, target.origin, deltas);
  for (let round = 0; round < rounds; round++) {
    for (const [i, target] of targets.entries()) rates[i]!.push(await oneStream(client, target.origin, deltas));
  }
  return targets.map((target, i) => ({ target: target.name, rates: rates[i]!, median: median(rates[i]!) }));
}
