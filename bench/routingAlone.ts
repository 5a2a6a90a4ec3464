import { createClient } from './client.js';
import { launchUpstream } from './launchUpstream.js';
import { measureRoutingCost } from './routingCost.js';

// The routing figure alone: `npm run -s bench:routing [rounds] > rows.json` prints its rows as JSON.
const rounds = Number(process.argv[2] ?? 500);
const upstream = await launchUpstream();
const client = createClient();
const rows = await measureRoutingCost(client, upstream, { rounds, warmup: Math.ceil(rounds / 10) });
await client.close();
await upstream.close();
process.stdout.write(`${JSON.stringify(rows, null, 1)}\n`);
