import type { RequestHandler } from 'express';

/** `GET /health`: cheap liveness, no auth. */
export const healthRoute: RequestHandler = (_req, res) => {
  res.json({ status: 'ok' });
};
