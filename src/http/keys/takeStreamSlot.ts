import type { Metrics } from '../../metrics/createMetrics.js';
import type { Principal } from '../../principal.js';
import type { KeyLimits, ReleaseSlot } from '../../store/KeyLimits.js';

/**
 * One of the `maxStreams` slots of `principal`'s key (a key without `maxStreams` always gets one),
 * counted in `rxgate_key_in_flight` until released; undefined when all are taken.
 */
export async function takeStreamSlot(
  limits: KeyLimits,
  metrics: Metrics,
  { id, policy = {} }: Principal,
): Promise<ReleaseSlot | undefined> {
  const release = policy.maxStreams === undefined ? () => undefined : await limits.acquireStream(id, policy.maxStreams);
  if (!release) return undefined;
  metrics.keyInFlight.inc({ key: id });
  let released = false;
  return () => {
    if (released) return;
    released = true;
    release();
    metrics.keyInFlight.dec({ key: id });
  };
}
