import type Database from 'better-sqlite3';
import type { ResponseObject } from '../protocol/responses/responseObject.js';
import type { RunObject } from '../protocol/runs/runObject.js';

export const INTERRUPTED_MESSAGE = 'rxgate: the server stopped while this was in progress (crash or kill); it did not finish';

/**
 * Marks what was in flight when the previous process died as failed, with a clear error, and
 * ends its event log with the matching terminal event so that a subscriber is not left waiting.
 * Returns how many items it marked.
 */
export function recoverInterrupted(db: Database.Database, now = Date.now()): number {
  const seconds = Math.floor(now / 1000);
  const appendTerminal = db.prepare(
    'INSERT INTO events (stream_id, seq, type, data) SELECT @id, COALESCE(MAX(seq), -1) + 1, @type, @data FROM events WHERE stream_id = @id',
  );
  return db.transaction(() => {
    const runs = db.prepare("SELECT body FROM runs WHERE status IN ('queued', 'running')").pluck().all() as string[];
    for (const body of runs) {
      const error = { message: INTERRUPTED_MESSAGE, type: 'server_error', code: 'interrupted' };
      const run: RunObject = { ...(JSON.parse(body) as RunObject), status: 'failed', completed_at: seconds, error };
      db.prepare('UPDATE runs SET status = ?, body = ? WHERE id = ?').run(run.status, JSON.stringify(run), run.id);
      appendTerminal.run({ id: run.id, type: 'run.failed', data: JSON.stringify({ type: 'run.failed', error }) });
    }
    const responses = db
      .prepare("SELECT body FROM responses WHERE tombstone IS NULL AND status IN ('queued', 'in_progress')")
      .pluck()
      .all() as string[];
    for (const body of responses) {
      const stored = JSON.parse(body) as ResponseObject;
      const response: ResponseObject = { ...stored, status: 'failed', error: { code: 'server_error', message: INTERRUPTED_MESSAGE } };
      db.prepare('UPDATE responses SET status = ?, body = ? WHERE id = ?').run(response.status, JSON.stringify(response), response.id);
      if (response.background) {
        const row = db.prepare('SELECT COALESCE(MAX(seq), -1) + 1 FROM events WHERE stream_id = ?').pluck().get(response.id) as number;
        appendTerminal.run({
          id: response.id,
          type: 'response.failed',
          data: JSON.stringify({ type: 'response.failed', sequence_number: row, response }),
        });
      }
    }
    return runs.length + responses.length;
  })();
}
