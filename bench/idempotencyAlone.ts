import { createClient } from './client.js';
import { measureIdempotencyCost } from './idempotencyCost.js';
import { launchUpstream } from './launchUpstream.js';

// The Idempotency-Key figure alone: `npx tsx bench/idempotencyAlone.ts [rounds]` prints its rows as JSON.
const rounds = Number(process.argv[2] ?? 500);
const upstream = await launchUpstream();
const client = createClient();
const rows = await measureIdempotencyCost(client, upstream, { rounds, warmup: Math.ceil(rounds / 10) });
await client.close();
await upstream.close();
process.stdout.write(`${JSON.stringify(rows, null, 1)}\n`);
