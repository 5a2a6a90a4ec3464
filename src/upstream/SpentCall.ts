import type { CallCost } from '../money/CallCost.js';
import type { CallTokens } from '../money/costOf.js';
import type { Payer } from '../money/Payer.js';
import type { AttemptInfo } from './AttemptObserver.js';

/**
 * What one upstream attempt spent, told once when it ends: completed, failed after its first
 * content, or cancelled (the prompt had gone out). An attempt that failed before any content is
 * never told: upstreams bill a refused request nothing.
 */
export interface SpentCall {
  /** When it ended, in milliseconds since the epoch. */
  readonly at: number;
  readonly attempt: AttemptInfo;
  /** Whom the call was made for; absent for a caller that named nobody (an operator's own code). */
  readonly payer?: Payer;
  readonly tokens: CallTokens;
  readonly cost: CallCost;
}
