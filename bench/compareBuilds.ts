import { measureAddedLatency } from './addedLatency.js';
import { buildGatewayAt } from './buildGateway.js';
import { createClient } from './client.js';
import { launchGateway } from './launchGateway.js';
import { launchUpstream } from './launchUpstream.js';
import { measureThroughput } from './throughput.js';

// Before and after a change, side by side in one run: `npm run -s bench:compare -- <ref> [rounds] > rows.json`.
// Figure 1 (sequential 8-delta requests, both modes, interleaved round by round) for the working
// tree's rxgate, rxgate as committed at the git ref, and the pipe; each gateway's CPU time per
// request over the measured rounds; then figure 2 (one stream of flat-out deltas at a time, the
// targets taking turns), its frames per second and each gateway's CPU per frame. Runs of one
// build drift with the machine by more than most changes move them; builds measured side by side
// drift together.
const [ref = 'HEAD', roundsArg = '2000'] = process.argv.slice(2);
const rounds = Number(roundsArg);
const before = await buildGatewayAt(ref);
const upstream = await launchUpstream();
const client = createClient();
const targets = [
  { name: 'rxgate', gateway: await launchGateway('rxgate', upstream.baseUrl) },
  { name: `rxgate at ${ref}`, gateway: await launchGateway('rxgate', upstream.baseUrl, {}, { gateway: before }) },
  { name: 'pipe', gateway: await launchGateway('pipe', upstream.baseUrl) },
];
const origins = targets.map(({ name, gateway }) => ({ name, origin: gateway.origin }));
const cpuMicros = () => Promise.all(targets.map(async ({ gateway }) => (await gateway.stats()).cpuMicros));

// Warmed up apart, so that the CPU counted is the measured rounds' alone.
await measureAddedLatency(client, upstream, origins, { rounds: Math.ceil(rounds / 2), warmup: 0 });
const cpuBefore = await cpuMicros();
const latency = await measureAddedLatency(client, upstream, origins, { rounds, warmup: 0 });
const cpuAfter = await cpuMicros();
const throughputTargets = targets.map(({ name, gateway }) => ({ name, origin: gateway.origin, pid: gateway.child.pid! }));
const throughput = await measureThroughput(client, throughputTargets, upstream.pid, { deltas: 50_000, rounds: 9 });
await client.close();
for (const { gateway } of targets) await gateway.stop();
await upstream.close();

// Each gateway answered one request of each mode a round.
const cpuPerRequest = targets.map(({ name }, i) => ({ target: name, cpuMicros: (cpuAfter[i]! - cpuBefore[i]!) / (rounds * 2) }));
process.stdout.write(`${JSON.stringify({ ref, rounds, latency, cpuPerRequest, throughput }, null, 1)}\n`);
