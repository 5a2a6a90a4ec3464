import type { RouteHandler } from '../serving/routeHandler.js';
import type { Readiness } from '../health/readiness.js';

/** `GET /health`: cheap liveness, no auth. */
export const healthRoute: RouteHandler = (_req, res) => {
  res.json({ status: 'ok' });
};

/** `GET /health/ready`: 200 when the service can take work, else 503 with the reasons; with the details checks give (an `mcp` section). */
export function readinessRoute(readiness: Readiness): RouteHandler {
  return async (_req, res) => {
    const reasons = await readiness.reasons();
    const details = readiness.details();
    if (reasons.length === 0) res.json({ status: 'ready', ...details });
    else res.status(503).json({ status: 'not_ready', reasons, ...details });
  };
}
