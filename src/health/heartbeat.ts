/** What the main thread last said of its loop, as the health thread reads it from shared memory. */
export interface Pulse {
  /** `Date.now()` of the main thread's last beat. */
  readonly beatAt: number;
  /** How far behind the main loop was at that beat, in ms, while overload shedding was on; else undefined. */
  readonly overloadedByMs: number | undefined;
}

/** Whether the main thread sheds, and by how much it lags: what `Overload` tells. */
export interface LoadState {
  readonly overloaded: boolean;
  readonly delayMs: number;
}

const BEAT_AT = 0;
const OVERLOADED_BY = 1;
const NOT_OVERLOADED = -1n;

/**
 * The main thread's pulse, written every `periodMs` into memory that a health thread shares: when
 * it last beat and whether it sheds. A beat that does not come tells the health thread that the
 * main loop is stuck in a turn, however long that turn lasts. The timer is unref'd.
 */
export class Heartbeat {
  readonly memory = new SharedArrayBuffer(2 * BigInt64Array.BYTES_PER_ELEMENT);
  readonly periodMs: number;
  readonly #slots = new BigInt64Array(this.memory);
  readonly #load: LoadState;
  #timer: NodeJS.Timeout | undefined;

  constructor(load: LoadState, periodMs = 10) {
    this.#load = load;
    this.periodMs = periodMs;
  }

  start(): this {
    this.#beat();
    this.#timer ??= setInterval(() => this.#beat(), this.periodMs).unref();
    return this;
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #beat(): void {
    Atomics.store(this.#slots, BEAT_AT, BigInt(Date.now()));
    const behind = this.#load.overloaded ? BigInt(Math.round(this.#load.delayMs)) : NOT_OVERLOADED;
    Atomics.store(this.#slots, OVERLOADED_BY, behind);
  }
}

/** Reads the last beat a `Heartbeat` wrote into `memory` (from any thread). */
export function readPulse(memory: SharedArrayBuffer): Pulse {
  const slots = new BigInt64Array(memory);
  const behind = Atomics.load(slots, OVERLOADED_BY);
  return { beatAt: Number(Atomics.load(slots, BEAT_AT)), overloadedByMs: behind === NOT_OVERLOADED ? undefined : Number(behind) };
}
