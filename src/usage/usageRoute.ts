import type { RouteHandler } from '../serving/routeHandler.js';
import { localsOf } from '../serving/requestLocals.js';
import { USAGE_BUCKET_MS, type UsageLedger, type UsageRow } from '../store/UsageLedger.js';
import { parseUsageQuery } from './parseUsageQuery.js';

/** A row as `GET /api/usage` answers it: its bucket's start and end in Unix seconds. */
function showRow({ startMs, ...row }: UsageRow, bucketMs: number) {
  return { start: startMs / 1000, end: (startMs + bucketMs) / 1000, ...row };
}

/** `GET /api/usage`: the model calls' usage and cost by bucket and group; a key sees its own calls, an admin everyone's. */
export const usageRoute =
  (ledger: UsageLedger): RouteHandler =>
  async (req, res) => {
    const { principal } = localsOf(res);
    const query = parseUsageQuery(req.query, Date.now());
    const rows = await ledger.summarize(principal.admin ? query : { ...query, key: principal.id });
    const bucketMs = USAGE_BUCKET_MS[query.bucket];
    res.json({ object: 'list', data: rows.map((row) => showRow(row, bucketMs)) });
  };
