/** What the store reads of a run; the rest of its JSON is kept as it is. */
export interface RunRecord {
  readonly id: string;
  readonly status: string;
}

/** Runs, by id, as the JSON `GET /v1/runs/{id}` answers. */
export interface RunStore {
  save(run: RunRecord): Promise<void>;
  /** `R` is the shape the caller stored. */
  get<R extends RunRecord>(id: string): Promise<R | undefined>;
  /** The runs still queued or running that no live process owns: what a dead one left in flight. */
  unfinished<R extends RunRecord>(): Promise<R[]>;
}
