import { createClient } from './client.js';
import { measureConcurrency, type ConcurrencyPlan, type ConcurrencyRow } from './concurrency.js';
import { launchGateway } from './launchGateway.js';
import type { BenchUpstream } from './launchUpstream.js';

export type ConcurrencyFigurePlan = Omit<ConcurrencyPlan, 'streams'> & { readonly sizes: readonly number[]; readonly warmup: number };

/** The plan of figure 4, full or quick; `BENCH_STREAMS=1000,5000` changes its sizes. */
export function concurrencyPlan(quick: boolean): ConcurrencyFigurePlan {
  return {
    sizes: (process.env.BENCH_STREAMS ?? (quick ? '200' : '1000,10000')).split(',').map(Number),
    warmup: quick ? 50 : 200,
    // A slow upstream: at the largest size, a delta every 2 s is still 5,000 deltas a second that each gateway must relay.
    deltas: quick ? 4 : 10,
    everyMs: quick ? 500 : 2_000,
    // A pace every target keeps up with on two shared cores, so that each faces the same load.
    openPerSecond: 300,
    maxOpening: 500,
    holdMs: quick ? 20_000 : 120_000,
    deadlineMs: quick ? 30_000 : 300_000,
  };
}

/** Figure 4: each size through rxgate, the pipe floor and the bare relay, each in a fresh gateway process warmed with a few short streams. */
export async function measureConcurrencyFigure(
  upstream: BenchUpstream,
  { sizes, warmup, ...plan }: ConcurrencyFigurePlan,
  log: (message: string) => void,
): Promise<ConcurrencyRow[]> {
  const rows: ConcurrencyRow[] = [];
  for (const streams of sizes) {
    for (const kind of ['rxgate', 'pipe', 'bare'] as const) {
      const gateway = await launchGateway(kind, upstream.baseUrl);
      // No body timeout: the pipe and the bare relay send nothing while the upstream holds a stream; the deadline bounds the run.
      const client = createClient({ bodyTimeout: 0 });
      await measureConcurrency(client, gateway, upstream, { ...plan, streams: warmup, deltas: 3, everyMs: 100 });
      rows.push(await measureConcurrency(client, gateway, upstream, { ...plan, streams }));
      const { idle, loaded, ...row } = rows.at(-1)!;
      log(`  ${kind}: ${JSON.stringify({ ...row, clientErrors: loaded.clientErrors, openFiles: [idle.openFiles, loaded.openFiles] })}`);
      await client.close();
      await gateway.stop();
    }
  }
  return rows;
}
