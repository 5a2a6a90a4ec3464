import { measureAddedLatency } from './addedLatency.js';
import { createClient } from './client.js';
import { launchGateway } from './launchGateway.js';
import { launchUpstream } from './launchUpstream.js';

// Figure 1 alone, rxgate against the pipe: `npx tsx bench/latencyAlone.ts [rounds] > rows.json` prints its rows as JSON.
const rounds = Number(process.argv[2] ?? 2000);
const upstream = await launchUpstream();
const client = createClient();
const gateways = [await launchGateway('rxgate', upstream.baseUrl), await launchGateway('pipe', upstream.baseUrl)];
const rows = await measureAddedLatency(
  client,
  upstream,
  gateways.map((gateway) => ({ name: gateway.kind, origin: gateway.origin })),
  { rounds, warmup: Math.ceil(rounds / 2) },
);
await client.close();
for (const gateway of gateways) await gateway.stop();
await upstream.close();
process.stdout.write(`${JSON.stringify(rows, null, 1)}\n`);
