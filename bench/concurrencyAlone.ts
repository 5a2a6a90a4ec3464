import { concurrencyPlan, measureConcurrencyFigure } from './concurrencyFigure.js';
import { launchUpstream } from './launchUpstream.js';

// Figure 4 alone, as the full run plans it: `npm run -s bench:concurrency > rows.json` (`BENCH_STREAMS=10000` for one size). Prints its rows as JSON.
const log = (message: string) => process.stderr.write(`[concurrency ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
const upstream = await launchUpstream();
const rows = await measureConcurrencyFigure(upstream, concurrencyPlan(false), log);
await upstream.close();
process.stdout.write(`${JSON.stringify(rows, null, 1)}\n`);
