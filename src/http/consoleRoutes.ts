import { fileURLToPath } from 'node:url';
import express, { type RequestHandler, type Router } from 'express';
import type { AccessLog } from './accessLog.js';

/** The page's files: `console/` at the package's root, beside `src/` and `dist/`. */
const CONSOLE_DIR = fileURLToPath(new URL('../../console/', import.meta.url));

/** Everything the page loads comes from rxgate itself; no inline script or style, no frames, no plugins. */
export const CONSOLE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export interface ConsoleOptions {
  /** Whether `/v1` asks for an API key, so that the page asks for one only then. */
  readonly keyRequired: boolean;
  readonly accessLog: AccessLog;
}

const setHeaders: express.RequestHandler = (_req, res, next) => {
  res.set({
    'Content-Security-Policy': CONSOLE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-cache',
  });
  next();
};

/**
 * The console: `GET /console` (the page) and its files under `/console/`, none behind the API key
 * (the page holds no secret; what it calls under `/v1` is). `GET /` sends a browser, which asks
 * for HTML first, to the page; an API client keeps its 404.
 */
export function consoleRoutes({ keyRequired, accessLog }: ConsoleOptions): Router {
  // What a handler answers itself is logged here; what it passes on is logged by whatever answers it (the 404, the API).
  const logged =
    (handler: RequestHandler): RequestHandler =>
    (req, res, next) => {
      let passedOn = false;
      res.once('close', () => passedOn || accessLog(req, res));
      return handler(req, res, (error?: unknown) => {
        passedOn = true;
        next(error);
      });
    };
  const router = express.Router();
  const page: RequestHandler = (_req, res) => res.sendFile('index.html', { root: CONSOLE_DIR });
  router.get(
    '/',
    logged((req, res, next) => (req.accepts(['application/json', 'text/html']) === 'text/html' ? res.redirect(302, '/console') : next())),
  );
  router.get('/console', setHeaders, logged(page));
  router.get(
    '/console/settings.json',
    setHeaders,
    logged((_req, res) => void res.json({ key_required: keyRequired })),
  );
  router.use('/console', setHeaders, logged(express.static(CONSOLE_DIR, { redirect: false, etag: false, index: false })));
  return router;
}
