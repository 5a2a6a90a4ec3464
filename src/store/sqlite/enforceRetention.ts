import type Database from 'better-sqlite3';
import type { RetentionPolicy } from '../retentionPolicy.js';

const SETTLED_RESPONSE = "tombstone IS NULL AND status NOT IN ('queued', 'in_progress')";
const FINISHED_RUN = "status IN ('completed', 'failed', 'cancelled')";

/**
 * Applies the retention policy in one transaction. An evicted response keeps a tombstone (its id
 * and why it is gone) so that a chain through it answers 404 with a reason instead of silently
 * losing turns (tombstones themselves are capped at ten times `maxItems`; past that a chain
 * through one answers a plain 404 "not found"); finished runs are removed with their event
 * logs. Expired `Idempotency-Key` records go too, and the event logs whose time is up (see
 * `EventLog.expire`), and the usage ledger's rows past their own age: none is an item. Returns how many items went.
 */
export function enforceRetention(db: Database.Database, { maxItems, maxAgeMs, usageMaxAgeMs }: RetentionPolicy, now = Date.now()): number {
  const cutoff = now - maxAgeMs;
  return db.transaction(() => {
    const responses = db
      .prepare(
        `SELECT id FROM responses WHERE ${SETTLED_RESPONSE} AND (created_at < @cutoff OR rowid NOT IN
           (SELECT rowid FROM responses WHERE ${SETTLED_RESPONSE} ORDER BY rowid DESC LIMIT @maxItems))`,
      )
      .pluck()
      .all({ cutoff, maxItems }) as string[];
    const runs = db
      .prepare(
        `SELECT id FROM runs WHERE ${FINISHED_RUN} AND (created_at < @cutoff OR rowid NOT IN
           (SELECT rowid FROM runs WHERE ${FINISHED_RUN} ORDER BY rowid DESC LIMIT @maxItems))`,
      )
      .pluck()
      .all({ cutoff, maxItems }) as string[];
    const bury = db.prepare("UPDATE responses SET tombstone = 'evicted', body = NULL, turn = NULL WHERE id = ?");
    const removeRun = db.prepare('DELETE FROM runs WHERE id = ?');
    const removeEvents = db.prepare('DELETE FROM events WHERE stream_id = ?');
    for (const id of responses) {
      bury.run(id);
      removeEvents.run(id);
    }
    for (const id of runs) {
      removeRun.run(id);
      removeEvents.run(id);
    }
    // Tombstones are small but not free: keep ten times as many as responses, the oldest go first.
    const tombstones = db
      .prepare(
        `DELETE FROM responses WHERE tombstone IS NOT NULL AND rowid NOT IN
           (SELECT rowid FROM responses WHERE tombstone IS NOT NULL ORDER BY rowid DESC LIMIT @keep)`,
      )
      .run({ keep: maxItems * 10 }).changes;
    // Otherwise an expired record stays until its key is used again, and most keys never are.
    db.prepare('DELETE FROM idempotency WHERE expires_at <= ?').run(now);
    db.prepare('DELETE FROM events WHERE stream_id IN (SELECT stream_id FROM event_expiry WHERE expires_at <= ?)').run(now);
    db.prepare('DELETE FROM event_expiry WHERE expires_at <= ?').run(now);
    db.prepare('DELETE FROM usage_calls WHERE at < ?').run(now - usageMaxAgeMs);
    return responses.length + runs.length + tombstones;
  })();
}
