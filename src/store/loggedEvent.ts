/** One event of a detached run's log: `seq` orders it (and is its SSE id), `data` is its JSON. */
export interface LoggedEvent {
  readonly seq: number;
  readonly type: string;
  readonly data: string;
}
