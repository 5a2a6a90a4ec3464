import type { Metrics } from './createMetrics.js';

interface Counted {
  inc(): void;
  dec(): void;
}

const byGauge = new WeakMap<object, Map<string, Counted>>();

/**
 * `rxgate_in_flight_streams{route}` of one route, made once per route: `labels()` makes a child
 * with five bound functions on every call, which every open stream held for its life.
 */
export function inFlightStreams(metrics: Metrics, route: string): Counted {
  const gauge = metrics.inFlightStreams;
  let children = byGauge.get(gauge);
  if (!children) byGauge.set(gauge, (children = new Map()));
  let child = children.get(route);
  if (!child) children.set(route, (child = gauge.labels(route)));
  return child;
}
