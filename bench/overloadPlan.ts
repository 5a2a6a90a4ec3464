import type { OverloadPlan } from './overloadBurst.js';

/** The `RXGATE_MAX_EVENT_LOOP_DELAY_MS` the README recommends (the default, 0, never sheds): the figure's verdict is read at it. */
export const RECOMMENDED_LIMIT_MS = 200;

/** Figure 7's plan: 300 streams at once, with rxgate's overload limit off, at the recommended limit and lower. */
export function overloadPlan(quick: boolean): OverloadPlan {
  const limits = quick ? [0, RECOMMENDED_LIMIT_MS] : [0, RECOMMENDED_LIMIT_MS, 100, 50];
  return { streams: quick ? 50 : 300, deltas: 40, everyMs: 25, probeEveryMs: 10, limits };
}
