import type Database from 'better-sqlite3';
import { FIRES_KEPT, type JobFire, type JobRecord, type JobStore, type StoredJob } from '../JobStore.js';
import { storeCall, type WriteHealth } from './storeCall.js';

interface JobRow {
  readonly body: string;
  readonly last_slot: number | null;
}

const toStoredJob = ({ body, last_slot }: JobRow): StoredJob => ({ ...(JSON.parse(body) as JobRecord), last_slot });

/** Jobs in SQLite: a row each, its JSON and the last claimed slot; fires in a table of their own. */
export class SqliteJobStore implements JobStore {
  readonly #upsert: Database.Statement;
  readonly #select: Database.Statement;
  readonly #all: Database.Statement;
  readonly #delete: Database.Transaction<(id: string) => boolean>;
  readonly #claim: Database.Statement;
  readonly #record: Database.Transaction<(id: string, fire: JobFire) => void>;
  readonly #fires: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly health: WriteHealth,
  ) {
    this.#upsert = db.prepare(
      'INSERT INTO jobs (id, created_at, body) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body',
    );
    this.#select = db.prepare('SELECT body, last_slot FROM jobs WHERE id = ?');
    this.#all = db.prepare('SELECT body, last_slot FROM jobs ORDER BY created_at, id');
    const deleteJob = db.prepare('DELETE FROM jobs WHERE id = ?');
    const deleteFires = db.prepare('DELETE FROM job_fires WHERE job_id = ?');
    this.#delete = db.transaction((id: string) => {
      deleteFires.run(id);
      return deleteJob.run(id).changes > 0;
    });
    // One statement: SQLite runs it under the database's write lock, so a slot is claimed once.
    this.#claim = db.prepare('UPDATE jobs SET last_slot = ? WHERE id = ? AND (last_slot IS NULL OR last_slot < ?)');
    // Only while the job is there: a fire of one deleted meanwhile would be left behind for good.
    const insertFire = db.prepare('INSERT INTO job_fires (job_id, body) SELECT ?, ? WHERE EXISTS (SELECT 1 FROM jobs WHERE id = ?)');
    const trimFires = db.prepare(
      'DELETE FROM job_fires WHERE job_id = ? AND seq NOT IN (SELECT seq FROM job_fires WHERE job_id = ? ORDER BY seq DESC LIMIT ?)',
    );
    this.#record = db.transaction((id: string, fire: JobFire) => {
      insertFire.run(id, JSON.stringify(fire), id);
      trimFires.run(id, id, FIRES_KEPT);
    });
    this.#fires = db.prepare('SELECT body FROM job_fires WHERE job_id = ? ORDER BY seq DESC').pluck();
  }

  save(job: JobRecord): Promise<void> {
    return this.health.write('save a job', () => void this.#upsert.run(job.id, job.created_at, JSON.stringify(job)));
  }

  get(id: string): Promise<StoredJob | undefined> {
    return storeCall('read a job', () => {
      const row = this.#select.get(id) as JobRow | undefined;
      return row ? toStoredJob(row) : undefined;
    });
  }

  list(): Promise<StoredJob[]> {
    return storeCall('list jobs', () => (this.#all.all() as JobRow[]).map(toStoredJob));
  }

  delete(id: string): Promise<boolean> {
    return this.health.write('delete a job', () => this.#delete(id));
  }

  claim(id: string, slot: number): Promise<boolean> {
    return this.health.write('claim a job slot', () => this.#claim.run(slot, id, slot).changes === 1);
  }

  record(id: string, fire: JobFire): Promise<void> {
    return this.health.write('record a job fire', () => this.#record(id, fire));
  }

  fires(id: string): Promise<JobFire[]> {
    return storeCall('read job fires', () => (this.#fires.all(id) as string[]).map((body) => JSON.parse(body) as JobFire));
  }
}
