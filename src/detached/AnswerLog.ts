import type { EventLog, LoggedEvent } from '../store/EventLog.js';

/**
 * The event log a foreground answer under an `Idempotency-Key` is written to as it is sent, so
 * that a duplicate request replays it: the client that asked is never kept waiting on the store
 * (appends go in order, unawaited), and `stored()` says at the end whether all of it was kept.
 */
export class AnswerLog {
  #nextSeq = 0;
  // The last append: the log keeps appends in order, so once it settles every earlier one has.
  #appended: Promise<void> = Promise.resolve();
  #expiring: Promise<void> | undefined;
  #failure: unknown;
  #whole = false;

  constructor(
    private readonly events: EventLog,
    /** The log's id. */
    readonly id: string,
    /** How long the log is kept (`EventLog.expire`); undefined when something else removes it (a stored response takes its log with it). */
    private readonly keepMs?: number,
  ) {}

  /** The sequence number the next event gets unless it brings its own. */
  get nextSeq(): number {
    return this.#nextSeq;
  }

  /** Whether the answer's last event was appended: the answer is whole, whatever the store made of it. */
  get whole(): boolean {
    return this.#whole;
  }

  /** Appends one event (numbered after the last unless it brings its `seq`). */
  append(type: string, data: string, seq = this.#nextSeq): void {
    this.#nextSeq = seq + 1;
    const appended = this.events.append(this.id, [{ seq, type, data }]);
    appended.catch((error: unknown) => {
      this.#failure ??= error;
    });
    this.#appended = appended;
    // Redis can only give a log that exists a time to live: once its first event is stored.
    if (this.keepMs !== undefined)
      this.#expiring ??= appended
        .then(() => this.events.expire(this.id, this.keepMs!))
        .catch((error: unknown) => {
          this.#failure ??= error;
        });
  }

  /** Appends the answer's last event, written at once: it is whole, and somebody waits for it to be kept. */
  end(event: Omit<LoggedEvent, 'seq'> & { readonly seq?: number }): void {
    this.#whole = true;
    this.append(event.type, event.data, event.seq);
    // The batch it joined settles with `#appended`, whose failure is kept there.
    this.events.flush().catch(() => undefined);
  }

  /** Resolves, once every event appended so far is settled, to whether all of them were stored. */
  async stored(): Promise<boolean> {
    await this.#appended.catch(() => undefined);
    await this.#expiring;
    return this.#failure === undefined;
  }
}
