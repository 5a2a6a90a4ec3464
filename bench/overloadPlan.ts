import type { OverloadPlan } from './overloadBurst.js';

/** Figure 7's plan: 300 streams at once, with rxgate's overload limit off, at its default and lower. */
export function overloadPlan(quick: boolean): OverloadPlan {
  return { streams: quick ? 50 : 300, deltas: 40, everyMs: 25, probeEveryMs: 10, limits: quick ? [0, 200] : [0, 200, 100, 50] };
}
