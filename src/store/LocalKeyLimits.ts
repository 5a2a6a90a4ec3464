import { RPM_WINDOW_MS, type KeyLimits, type ReleaseSlot } from './KeyLimits.js';

/** `KeyLimits` of one process: a sliding log of each key's request times, and a count of its streams. */
export class LocalKeyLimits implements KeyLimits {
  readonly #requests = new Map<string, number[]>();
  readonly #streams = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  async admit(keyId: string, rpm: number): Promise<number> {
    const now = this.now();
    const times = (this.#requests.get(keyId) ?? []).filter((time) => time > now - RPM_WINDOW_MS);
    this.#requests.set(keyId, times);
    if (times.length >= rpm) return times[times.length - rpm]! + RPM_WINDOW_MS - now;
    times.push(now);
    return 0;
  }

  async acquireStream(keyId: string, max: number): Promise<ReleaseSlot | undefined> {
    const held = this.#streams.get(keyId) ?? 0;
    if (held >= max) return undefined;
    this.#streams.set(keyId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#streams.get(keyId) ?? 1) - 1;
      if (left === 0) this.#streams.delete(keyId);
      else this.#streams.set(keyId, left);
    };
  }
}
