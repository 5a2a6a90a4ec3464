/** What the store reads of a run; the rest of its JSON is kept as it is. */
export interface RunRecord {
  readonly id: string;
  readonly status: string;
}

/** Which page of runs `list` reads: up to `limit`, the ones created before the run `after` (newest first). */
export interface RunPage {
  readonly limit: number;
  readonly after?: string;
}

/** A listed run and who made it (`DEFAULT_OWNER` for a run stored before owners were). */
export interface ListedRun<R extends RunRecord> {
  readonly run: R;
  readonly owner: string;
}

/** Runs, by id, as the JSON `GET /v1/runs/{id}` answers. */
export interface RunStore {
  /**
   * `owner`, the principal id that made the run, is kept from the first save that gives it; later saves need not repeat it.
   * A save of a queued or running run over a finished one changes nothing: a late save never takes a run's end back.
   */
  save(run: RunRecord, owner?: string): Promise<void>;
  /**
   * Who made run `id` (`DEFAULT_OWNER` for a run stored before owners were), or undefined when
   * there is no such run. The same reads whether the run is there or not, whoever made it.
   */
  owner(id: string): Promise<string | undefined>;
  /** `R` is the shape the caller stored. */
  get<R extends RunRecord>(id: string): Promise<R | undefined>;
  /** The runs still queued or running that no live process owns: what a dead one left in flight. */
  unfinished<R extends RunRecord>(): Promise<R[]>;
  /** Runs newest first (by when they were first saved), of every instance sharing the store; none after an `after` it does not know. */
  list<R extends RunRecord>(page: RunPage): Promise<ListedRun<R>[]>;
}
