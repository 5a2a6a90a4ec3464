/** A stream slot a key holds; `release` gives it back (once, however often it is called). */
export type ReleaseSlot = () => void;

/**
 * The per-key counters behind a key's `rpm` and `maxStreams`: in this process (`LocalKeyLimits`),
 * or one set in Redis that every instance shares (`RedisKeyLimits`).
 */
export interface KeyLimits {
  /** Counts one request of `keyId` in the last minute; 0 when it is within `rpm`, else the ms until one more would be. */
  admit(keyId: string, rpm: number): Promise<number>;
  /** One of `max` stream slots of `keyId`, or undefined when all are taken. */
  acquireStream(keyId: string, max: number): Promise<ReleaseSlot | undefined>;
}

/** The window `rpm` counts in. */
export const RPM_WINDOW_MS = 60_000;
