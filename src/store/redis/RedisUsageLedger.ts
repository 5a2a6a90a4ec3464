import { fromPico, toPico } from '../../money/pico.js';
import { DEFAULT_OWNER } from '../../principal.js';
import type { SpentCall } from '../../upstream/SpentCall.js';
import type { RetentionPolicy } from '../retentionPolicy.js';
import { USAGE_BUCKET_MS, type UsageLedger, type UsageQuery, type UsageRow, type UsageTotals } from '../UsageLedger.js';
import type { RedisClient } from './connectRedis.js';
import { redisCall } from './redisCall.js';
import type { RedisKeys } from './redisKeys.js';

const HOUR_MS = USAGE_BUCKET_MS.hour;
const MEASURES = ['calls', 'input', 'cached', 'output', 'pico', 'estimated'] as const;
type Measure = (typeof MEASURES)[number];

// One script, so that a call's measures land in its hour together; the hour lives as long as the ledger keeps rows.
const ADD = `for i = 1, 6 do redis.call('HINCRBY', KEYS[1], ARGV[1] .. '|' .. ARGV[i * 2], ARGV[i * 2 + 1]) end
redis.call('PEXPIREAT', KEYS[1], ARGV[14])
return 1`;

/** A group's name in an hour's hash, before `|` and the measure: its key, the model asked for and the upstream's model, as JSON. */
const groupOf = (call: SpentCall): string => JSON.stringify([call.payer?.key ?? DEFAULT_OWNER, call.attempt.requested, call.attempt.model]);

interface Sums {
  calls: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  pico: number;
  estimatedCalls: number;
}

const FIELD_OF: Record<Measure, keyof Sums> = {
  calls: 'calls',
  input: 'inputTokens',
  cached: 'cachedInputTokens',
  output: 'outputTokens',
  pico: 'pico',
  estimated: 'estimatedCalls',
};

const totalsOf = ({ pico, ...sums }: Sums): UsageTotals => ({ ...sums, costUsd: fromPico(pico) });

/**
 * The usage ledger in Redis: each call an entry of one stream (the rows, trimmed by age as they are
 * added), and its measures added to its hour's hash, which a summary reads: at most one hash an
 * hour of the range, however many calls. Every key is one slot of a cluster.
 */
export class RedisUsageLedger implements UsageLedger {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    private readonly retention: RetentionPolicy,
  ) {}

  record(call: SpentCall): Promise<void> {
    const { at, attempt, payer, tokens, cost } = call;
    const keptSince = at - this.retention.usageMaxAgeMs;
    const hour = Math.floor(at / HOUR_MS) * HOUR_MS;
    // Summed as whole picodollars (HINCRBY), where HINCRBYFLOAT would gather binary noise.
    const pico = toPico(cost.usd);
    const measures: Record<Measure, number> = {
      calls: 1,
      input: tokens.input,
      cached: tokens.cachedInput,
      output: tokens.output,
      pico,
      estimated: cost.estimated ? 1 : 0,
    };
    return redisCall('record a model call', async () => {
      await Promise.all([
        this.redis.eval(ADD, {
          keys: [this.keys.usageHour(hour)],
          arguments: [
            groupOf(call),
            ...MEASURES.flatMap((measure) => [measure, String(measures[measure])]),
            String(hour + this.retention.usageMaxAgeMs + HOUR_MS),
          ],
        }),
        this.redis.xAdd(
          this.keys.usageCalls(),
          '*',
          {
            at: String(at),
            key: payer?.key ?? DEFAULT_OWNER,
            model: attempt.requested,
            upstream: attempt.upstream,
            upstreamModel: attempt.model,
            inputTokens: String(tokens.input),
            cachedInputTokens: String(tokens.cachedInput),
            cacheWriteTokens: String(tokens.cacheWrite),
            outputTokens: String(tokens.output),
            costUsd: String(cost.usd),
            estimated: cost.estimated ? '1' : '0',
            reference: payer?.reference ?? '',
          },
          { TRIM: { strategy: 'MINID', strategyModifier: '~', threshold: keptSince } },
        ),
      ]);
    });
  }

  summarize({ fromMs, toMs, bucket, groupBy, key }: UsageQuery): Promise<UsageRow[]> {
    return redisCall('sum the usage', async () => {
      const hours: number[] = [];
      for (let hour = Math.floor(fromMs / HOUR_MS) * HOUR_MS; hour < toMs; hour += HOUR_MS) hours.push(hour);
      const hashes = await Promise.all(hours.map((hour) => this.redis.hGetAll(this.keys.usageHour(hour))));
      const bucketMs = USAGE_BUCKET_MS[bucket];
      const rows = new Map<string, { row: Omit<UsageRow, keyof UsageTotals>; sums: Sums }>();
      hours.forEach((hour, index) => {
        for (const [field, value] of Object.entries(hashes[index]!)) {
          const cut = field.lastIndexOf('|');
          const [callKey, model, upstreamModel] = JSON.parse(field.slice(0, cut)) as [string, string, string];
          if (key !== undefined && callKey !== key) continue;
          const startMs = Math.floor(hour / bucketMs) * bucketMs;
          const group = { key: callKey, model, upstreamModel };
          const row = { startMs, ...Object.fromEntries(groupBy.map((grouping) => [grouping, group[grouping]])) };
          const id = JSON.stringify(row);
          let entry = rows.get(id);
          if (!entry) {
            entry = { row, sums: { calls: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, pico: 0, estimatedCalls: 0 } };
            rows.set(id, entry);
          }
          entry.sums[FIELD_OF[field.slice(cut + 1) as Measure]] += Number(value);
        }
      });
      return [...rows.values()].map(({ row, sums }) => ({ ...row, ...totalsOf(sums) })).sort(compareRows);
    });
  }
}

/** By bucket, then by the groups' names, as SQLite orders them. */
function compareRows(a: UsageRow, b: UsageRow): number {
  if (a.startMs !== b.startMs) return a.startMs - b.startMs;
  const name = (row: UsageRow) => [row.key ?? '', row.model ?? '', row.upstreamModel ?? ''].join('\u0000');
  const [x, y] = [name(a), name(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}
