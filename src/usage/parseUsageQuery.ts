import { z } from 'zod';
import { invalidRequest } from '../errors/invalidRequest.js';
import { RequestError } from '../errors/RequestError.js';
import { USAGE_BUCKET_MS, USAGE_GROUPINGS, type UsageGrouping, type UsageQuery } from '../store/UsageLedger.js';

const HOUR_MS = USAGE_BUCKET_MS.hour;
const DAY_MS = USAGE_BUCKET_MS.day;
/** The widest range one query may sum: a year and a month, past any retention a team keeps by default. */
const MAX_RANGE_DAYS = 400;

/** A time as ISO 8601 or as Unix seconds, in milliseconds since the epoch. */
const time = z.string().transform((text, context) => {
  const ms = /^\d+(\.\d+)?$/.test(text) ? Number(text) * 1000 : Date.parse(text);
  if (Number.isFinite(ms)) return ms;
  context.addIssue({ code: 'custom', message: `'${text}' is neither an ISO 8601 time nor Unix seconds` });
  return z.NEVER;
});

const groupings = z.string().transform((text, context) => {
  const names = text === '' ? [] : text.split(',').map((name) => name.trim());
  const unknown = names.find((name) => !(USAGE_GROUPINGS as readonly string[]).includes(name));
  if (unknown === undefined) return [...new Set(names)] as UsageGrouping[];
  context.addIssue({ code: 'custom', message: `'${unknown}' is not one of ${USAGE_GROUPINGS.join(', ')}` });
  return z.NEVER;
});

const querySchema = z.object({
  from: time.optional(),
  to: time.optional(),
  bucket: z.enum(['hour', 'day']).default('hour'),
  groupBy: groupings.default(['key', 'model']),
});

/**
 * Checks `GET /api/usage`'s query: `from` and `to` (ISO 8601 or Unix seconds; by default the last
 * 24 hours), widened to whole hours, the ledger's finest grain; `bucket` (`hour`, the default, or
 * `day`, in UTC); `groupBy` (some of `key`, `model`, `upstreamModel`; default `key,model`). A bad
 * one is a 400 naming it.
 */
export function parseUsageQuery(query: unknown, now: number): Omit<UsageQuery, 'key'> {
  const parsed = querySchema.safeParse(query);
  if (!parsed.success) throw invalidRequest(parsed.error, query);
  const { bucket, groupBy } = parsed.data;
  const toMs = Math.ceil((parsed.data.to ?? now) / HOUR_MS) * HOUR_MS;
  const fromMs = Math.floor((parsed.data.from ?? toMs - DAY_MS) / HOUR_MS) * HOUR_MS;
  if (fromMs >= toMs)
    throw new RequestError(400, "invalid 'from': it must be before 'to'", 'invalid_request_error', 'from', 'invalid_value');
  if (toMs - fromMs > MAX_RANGE_DAYS * DAY_MS)
    throw new RequestError(
      400,
      `invalid 'from': a range spans at most ${MAX_RANGE_DAYS} days`,
      'invalid_request_error',
      'from',
      'invalid_value',
    );
  return { fromMs, toMs, bucket, groupBy };
}
