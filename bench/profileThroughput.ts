import { createClient } from './client.js';
import { launchGateway } from './launchGateway.js';
import { launchUpstream } from './launchUpstream.js';
import { measureThroughput } from './throughput.js';

/**
 * `BENCH_CPU_PROF=dir node --import tsx bench/profileThroughput.ts [kind]`: figure 2 alone for one
 * gateway, for a CPU profile of its process that is not mostly idle time.
 */
const kind = (process.argv[2] ?? 'rxgate') as Parameters<typeof launchGateway>[0];
const upstream = await launchUpstream();
const gateway = await launchGateway(kind, upstream.baseUrl);
const client = createClient();
const [row] = await measureThroughput(client, [{ name: kind, origin: gateway.origin, pid: gateway.child.pid! }], upstream.pid, {
  deltas: 50_000,
  rounds: 5,
});
process.stdout.write(`${kind}: ${Math.round(row!.median)} frames/s (${row!.rates.map(Math.round).join(', ')})\n`);
await client.close();
await gateway.stop();
await upstream.close();
