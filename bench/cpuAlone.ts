import { createClient } from './client.js';
import { cpuTargets } from './cpuTargets.js';
import { measureCpuPerRequest } from './cpuPerRequest.js';
import { launchUpstream } from './launchUpstream.js';

// The CPU-per-request figure alone: `npm run -s bench:cpu > rows.json`. Prints its rows as JSON.
const upstream = await launchUpstream();
const { targets, stop } = await cpuTargets(upstream.baseUrl);
const client = createClient();
const rows = await measureCpuPerRequest(client, targets, {
  clients: 16,
  requests: Number(process.env.BENCH_CPU_REQUESTS ?? 1_600),
  rounds: 3,
});
await client.close();
await stop();
await upstream.close();
process.stdout.write(`${JSON.stringify(rows, null, 1)}\n`);
