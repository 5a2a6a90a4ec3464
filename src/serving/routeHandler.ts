import type { IRoute, Request, RequestHandler, Response, Router } from 'express';
import type { Served } from './served.js';

/** A route's work: it answers, and resolves to how serving went when it ran an agent or a stream. */
export type RouteHandler = (req: Request, res: Response) => Served | void | Promise<Served | void>;

/** Where an API mounts its routes: the router, how a handler becomes an Express one (its errors answered, its request logged), and the check that a request's model is one a route takes. */
export interface ApiRouter {
  readonly router: Router;
  readonly mount: (handler: RouteHandler) => RequestHandler;
  readonly knownModel: RequestHandler;
}

/** A route served without Express's router (see `serveHotRoutes`): `method` and the path under the router's mount path, its `Route` and its handlers as mounted there. */
export interface HotRoute {
  readonly method: string;
  readonly route: IRoute;
  readonly handlers: readonly RequestHandler[];
}
