import type Database from 'better-sqlite3';
import { roundUsd } from '../../money/usd.js';
import { DEFAULT_OWNER } from '../../principal.js';
import type { SpentCall } from '../../upstream/SpentCall.js';
import { USAGE_BUCKET_MS, type UsageGrouping, type UsageLedger, type UsageQuery, type UsageRow } from '../UsageLedger.js';
import { storeCall, type WriteHealth } from './storeCall.js';

const COLUMN: Record<UsageGrouping, string> = { key: 'key', model: 'model', upstreamModel: 'upstream_model' };

interface SummaryRow {
  readonly start: number;
  readonly key?: string;
  readonly model?: string;
  readonly upstream_model?: string;
  readonly calls: number;
  readonly input: number;
  readonly cached: number;
  readonly output: number;
  readonly cost: number;
  readonly estimated: number;
}

/** The usage ledger in SQLite: a row a call, summed by the query in one statement. */
export class SqliteUsageLedger implements UsageLedger {
  readonly #insert: Database.Statement;
  readonly #summaries = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly health: WriteHealth,
  ) {
    this.#insert = db.prepare(
      `INSERT INTO usage_calls (at, key, model, upstream, upstream_model, input_tokens, cached_input_tokens, cache_write_tokens,
         output_tokens, cost_usd, estimated, reference) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  record({ at, attempt, payer, tokens, cost }: SpentCall): Promise<void> {
    return this.health.write('record a model call', () => {
      this.#insert.run(
        at,
        payer?.key ?? DEFAULT_OWNER,
        attempt.requested,
        attempt.upstream,
        attempt.model,
        tokens.input,
        tokens.cachedInput,
        tokens.cacheWrite,
        tokens.output,
        cost.usd,
        cost.estimated ? 1 : 0,
        payer?.reference ?? null,
      );
    });
  }

  summarize({ fromMs, toMs, bucket, groupBy, key }: UsageQuery): Promise<UsageRow[]> {
    return storeCall('sum the usage', () => {
      const range = { from: fromMs, to: toMs, bucket: USAGE_BUCKET_MS[bucket] };
      const rows = this.#summary(groupBy, key !== undefined).all(key === undefined ? range : { ...range, key }) as SummaryRow[];
      return rows.map((row): UsageRow => ({
        startMs: row.start,
        ...(row.key === undefined ? {} : { key: row.key }),
        ...(row.model === undefined ? {} : { model: row.model }),
        ...(row.upstream_model === undefined ? {} : { upstreamModel: row.upstream_model }),
        calls: row.calls,
        inputTokens: row.input,
        cachedInputTokens: row.cached,
        outputTokens: row.output,
        costUsd: roundUsd(row.cost),
        estimatedCalls: row.estimated,
      }));
    });
  }

  /** One statement for each grouping asked for, prepared once: its columns come from `COLUMN` alone. */
  #summary(groupBy: readonly UsageGrouping[], oneKey: boolean): Database.Statement {
    const id = `${groupBy.join(',')}|${oneKey}`;
    let statement = this.#summaries.get(id);
    if (!statement) {
      const columns = groupBy.map((grouping) => COLUMN[grouping]);
      statement = this.db.prepare(
        `SELECT at - at % @bucket AS start${columns.map((column) => `, ${column}`).join('')},
           COUNT(*) AS calls, SUM(input_tokens) AS input, SUM(cached_input_tokens) AS cached, SUM(output_tokens) AS output,
           SUM(cost_usd) AS cost, SUM(estimated) AS estimated
         FROM usage_calls WHERE at >= @from AND at < @to${oneKey ? ' AND key = @key' : ''}
         GROUP BY ${['start', ...columns].join(', ')} ORDER BY ${['start', ...columns].join(', ')}`,
      );
      this.#summaries.set(id, statement);
    }
    return statement;
  }
}
