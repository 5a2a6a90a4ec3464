import { launchUpstream } from './launchUpstream.js';
import { measureOverload } from './overloadBurst.js';
import { overloadPlan } from './overloadPlan.js';

// Figure 7 alone, as the full run plans it: `npm run -s bench:overload > rows.json`. Prints its rows as JSON.
const upstream = await launchUpstream();
const rows = await measureOverload(upstream, overloadPlan(false));
await upstream.close();
process.stdout.write(`${JSON.stringify(rows, null, 1)}\n`);
