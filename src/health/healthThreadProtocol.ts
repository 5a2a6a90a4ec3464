import type { PulseLimits } from './pulseVerdicts.js';

/** What the health thread is started with. */
export interface HealthThreadData extends PulseLimits {
  readonly host: string;
  readonly port: number;
  /** The main thread's `Heartbeat.memory`. */
  readonly memory: SharedArrayBuffer;
  /** How long a readiness question may wait for the main thread before the answer is "not ready", in ms. */
  readonly askTimeoutMs: number;
}

/** From the health thread to the main thread. */
export type HealthThreadMessage =
  | { readonly type: 'listening'; readonly port: number }
  | { readonly type: 'failed'; readonly code: string | undefined; readonly message: string }
  | { readonly type: 'ask'; readonly id: number };

/** From the main thread to the health thread: the answer to `ask` `id`, what `Readiness` says. */
export interface ReadinessAnswer {
  readonly id: number;
  readonly reasons: readonly string[];
  readonly details: Record<string, unknown>;
}
