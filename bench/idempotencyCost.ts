import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent } from 'undici';
import { chatBody } from './benchUpstream.js';
import { timeOne } from './client.js';
import { launchGateway, type Gateway } from './launchGateway.js';
import type { BenchUpstream } from './launchUpstream.js';
import { median, p99 } from './stats.js';

/** How a request went through: no header, a new `Idempotency-Key` each time, or the same key again (a replay). */
export type IdempotencyKind = 'no key' | 'new key' | 'replay';

export interface IdempotencyCostRow {
  readonly kind: IdempotencyKind;
  readonly stream: boolean;
  readonly requests: number;
  readonly median: number;
  readonly p99: number;
  /** CPU time (user + system) of the gateway process per request, in ms. */
  readonly cpuPerRequest: number;
}

/** A process's CPU time so far (user + system), in ms, from `/proc` (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const KINDS: readonly IdempotencyKind[] = ['no key', 'new key', 'replay'];

/**
 * What an `Idempotency-Key` costs a chat completion: three rxgate processes, each on a SQLite file
 * of its own, sent the same requests in turn (sequential, interleaved request by request, the
 * first `warmup` rounds not counted): one without the header, one with a new key each time (the
 * answer is written to the event log and its end waits for the log's next write), one with the
 * same key every time (replayed from the log, no upstream call); their latency to the last byte
 * and the CPU time their process spent per request. Streaming and not, each with its own three processes.
 */
export async function measureIdempotencyCost(
  client: Agent,
  upstream: BenchUpstream,
  { rounds, warmup }: { rounds: number; warmup: number },
): Promise<IdempotencyCostRow[]> {
  const rows: IdempotencyCostRow[] = [];
  for (const stream of [true, false]) {
    const dirs = await Promise.all(KINDS.map(() => mkdtemp(join(tmpdir(), 'rxgate-bench-idem-'))));
    const gateways: Gateway[] = [];
    for (const dir of dirs) gateways.push(await launchGateway('rxgate', upstream.baseUrl, { RXGATE_DATA_DIR: dir }));
    const body = chatBody({ deltas: 8, everyMs: 0, text: 'Hello ' }, stream);
    const headers = (kind: IdempotencyKind, round: number): Record<string, string> =>
      kind === 'no key' ? {} : { 'Idempotency-Key': kind === 'replay' ? 'bench-replay' : `bench-${round}` };
    const samples = KINDS.map((): number[] => []);
    const cpuAtStart: number[] = [];
    for (let round = 0; round < warmup + rounds; round++) {
      if (round === warmup) gateways.forEach((gateway, i) => (cpuAtStart[i] = cpuMs(gateway.child.pid!)));
      for (const [i, gateway] of gateways.entries()) {
        const ms = await timeOne(client, gateway.origin, body, headers(KINDS[i]!, round));
        if (round >= warmup) samples[i]!.push(ms);
      }
    }
    const cpu = gateways.map((gateway, i) => cpuMs(gateway.child.pid!) - cpuAtStart[i]!);
    for (const gateway of gateways) await gateway.stop();
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
    rows.push(
      ...KINDS.map((kind, i) => ({
        kind,
        stream,
        requests: rounds,
        median: median(samples[i]!),
        p99: p99(samples[i]!),
        cpuPerRequest: cpu[i]! / rounds,
      })),
    );
  }
  return rows;
}
