import type { RequestHandler } from 'express';
import type { Registry } from 'prom-client';

/** `GET /metrics` in the Prometheus text format. */
export function metricsRoute(registry: Registry): RequestHandler {
  return async (_req, res) => {
    res.setHeader('Content-Type', registry.contentType);
    res.send(await registry.metrics());
  };
}
