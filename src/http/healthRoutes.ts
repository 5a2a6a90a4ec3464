import type { RouteHandler } from '../pipeline/routeHandler.js';
import type { Readiness } from '../health/readiness.js';

/** `GET /health`: cheap liveness, no auth. */
export const healthRoute: RouteHandler = (_req, res) => {
  res.json({ status: 'ok' });
};

/** `GET /health/ready`: 200 when the service can take work, else 503 with the reasons. */
export function readinessRoute(readiness: Readiness): RouteHandler {
  return async (_req, res) => {
    const reasons = await readiness.reasons();
    if (reasons.length === 0) res.json({ status: 'ready' });
    else res.status(503).json({ status: 'not_ready', reasons });
  };
}
