import { tracingChannel } from 'node:diagnostics_channel';
import type { ErrorRequestHandler, Express, IRoute, NextFunction, Request, RequestHandler, Response } from 'express';
import type { HotRoute } from '../../serving/routeHandler.js';

/** The middleware Express runs before a hot route's own handlers, as they are mounted on the app. */
export interface HotChain {
  /** The app's own middleware, in order, up to the router that holds the hot routes. */
  readonly app: readonly RequestHandler[];
  /** Where that router is mounted (`/v1`), and its middleware before its routes, in order. */
  readonly mountPath: string;
  readonly mounted: readonly RequestHandler[];
  /** The app's error handler, the one an error before or in a hot route reaches. */
  readonly onError: ErrorRequestHandler;
}

type Handle = (req: Request, res: Response, callback?: NextFunction) => void;

/** The router's own diagnostics channel: with a subscriber, every request goes through the router, which publishes to it. */
const routerChannel = tracingChannel('express.router.request');

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

/**
 * Serves `routes` of a top-level `app` without its router, running the same middleware in the
 * same order with the request in the same state (`baseUrl`, `url`, `route`, `params`), and hands
 * every other request to Express. Express's router matches each request against every layer of
 * the app, then of the mounted router: on the hot routes (a chat completion) that walk cost more
 * than a tenth of the process's CPU per request. Only an exact path is served here (no query, no
 * trailing slash, no other case); those go through Express, which answers them as before.
 */
export function serveHotRoutes(app: Express, chain: HotChain, routes: readonly HotRoute[]): void {
  const byPath = new Map(
    routes.map((hot): [string, Steps] => [
      `${hot.method} ${chain.mountPath}${hot.route.path}`,
      {
        route: hot.route,
        handlers: [...chain.app, ...chain.mounted, ...hot.handlers],
        mountedFrom: chain.app.length,
        routeFrom: chain.app.length + chain.mounted.length,
      },
    ]),
  );
  const express = app as unknown as { handle: Handle; request: object; response: object };
  const handleByRouter = express.handle.bind(app);
  express.handle = (req, res, callback) => {
    // With a callback the app is mounted in another, and its paths are not the client's.
    const hot = callback === undefined && !routerChannel.hasSubscribers ? byPath.get(`${req.method} ${req.url}`) : undefined;
    if (hot === undefined) return handleByRouter(req, res, callback);
    // What `app.handle` does before its router.
    req.res = res;
    res.req = req;
    if (app.enabled('x-powered-by')) res.setHeader('X-Powered-By', 'Express');
    Object.setPrototypeOf(req, express.request);
    Object.setPrototypeOf(res, express.response);
    res.locals ??= Object.create(null) as Response['locals'];
    serveHot(req, res, chain, hot);
  };
}

/** A hot route's handlers from the app's first on, and where the mounted router's and the route's own begin. */
interface Steps {
  readonly route: IRoute;
  readonly handlers: readonly RequestHandler[];
  readonly mountedFrom: number;
  readonly routeFrom: number;
}

function serveHot(req: Request, res: Response, chain: HotChain, { route, handlers, mountedFrom, routeFrom }: Steps): void {
  const fullUrl = req.url;
  let index = 0;
  const fail = (error: unknown) => {
    // As the routers leave it when an error unwinds them: the mount undone, `route` kept once matched.
    req.baseUrl = '';
    req.url = fullUrl;
    try {
      chain.onError(error, req, res, () => undefined);
    } catch {
      res.destroy();
    }
  };
  const next: NextFunction = (error?: unknown) => {
    if (error !== undefined && error !== null) return fail(error);
    const step = handlers[index];
    if (step === undefined) return;
    if (index === mountedFrom) {
      req.baseUrl = chain.mountPath;
      req.url = fullUrl.slice(chain.mountPath.length);
    }
    if (index === routeFrom) req.route = route;
    index++;
    try {
      const returned: unknown = step(req, res, next);
      if (isThenable(returned)) returned.then(undefined, (rejection: unknown) => next(rejection ?? new Error('Rejected promise')));
    } catch (thrown) {
      next(thrown);
    }
  };
  req.baseUrl = '';
  req.originalUrl ??= fullUrl;
  req.params = {};
  req.next = next;
  next();
}
