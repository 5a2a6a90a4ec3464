import { createClient } from './client.js';
import { launchUpstream } from './launchUpstream.js';
import { measureSocketRollout } from './socketRollout.js';

// The WebSocket rollout figure alone: `npx tsx bench/socketRolloutAlone.ts [rounds] > rows.json` prints its rows as JSON.
const rounds = Number(process.argv[2] ?? 30);
const upstream = await launchUpstream();
const client = createClient();
const rows = await measureSocketRollout(client, upstream, { rounds });
await client.close();
await upstream.close();
process.stdout.write(`${JSON.stringify(rows, null, 1)}\n`);
