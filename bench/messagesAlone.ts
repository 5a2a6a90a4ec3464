import { createClient } from './client.js';
import { launchUpstream } from './launchUpstream.js';
import { measureMessagesCost } from './messagesCost.js';

// The Messages figure alone: `npm run -s bench:messages [rounds] > rows.json` prints its rows as JSON.
const rounds = Number(process.argv[2] ?? 20);
const upstream = await launchUpstream();
const client = createClient();
const rows = await measureMessagesCost(client, upstream, { rounds, requests: 400 });
await client.close();
await upstream.close();
process.stdout.write(`${JSON.stringify(rows, null, 1)}\n`);
