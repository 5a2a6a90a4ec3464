import type { Pulse } from './heartbeat.js';
import { overloadedBy } from './overloadedBy.js';

/** What the health thread holds the main thread's pulse against. */
export interface PulseLimits {
  /** How often the main thread beats, in ms. */
  readonly periodMs: number;
  /** `RXGATE_MAX_EVENT_LOOP_DELAY_MS`; 0: overload is never reported. */
  readonly maxDelayMs: number;
  /** Silence, in ms, past which the main loop counts as stuck: liveness fails. */
  readonly stallMs: number;
}

/** Why the process is not live (its main loop has not beaten for `stallMs`), or undefined. */
export function stalledReason(pulse: Pulse, now: number, { stallMs }: PulseLimits): string | undefined {
  const silentMs = now - pulse.beatAt;
  return silentMs > stallMs ? `event loop: no progress for ${Math.round(silentMs)} ms (over ${stallMs} ms)` : undefined;
}

/**
 * Why the main loop cannot take work now, as seen without asking it: it said it sheds at its last
 * beat, or its next beat is already later than the limit allows (a long turn is under way).
 */
export function overloadReason(pulse: Pulse, now: number, { periodMs, maxDelayMs }: PulseLimits): string | undefined {
  if (maxDelayMs === 0) return undefined;
  const behindMs = Math.max(pulse.overloadedByMs ?? 0, now - pulse.beatAt - periodMs);
  if (pulse.overloadedByMs === undefined && behindMs <= maxDelayMs) return undefined;
  return `event loop: ${overloadedBy(behindMs, maxDelayMs)}`;
}
