import type { RouteHandler } from '../serving/routeHandler.js';
import type { Registry } from 'prom-client';

/** `GET /metrics` in the Prometheus text format. */
export function metricsRoute(registry: Registry): RouteHandler {
  return async (_req, res) => {
    res.setHeader('Content-Type', registry.contentType);
    res.send(await registry.metrics());
  };
}
