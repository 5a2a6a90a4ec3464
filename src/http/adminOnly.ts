import type { RequestHandler } from 'express';
import { localsOf } from '../serving/requestLocals.js';

/**
 * Lets only an admin key (on a server without keys, everyone: `DEFAULT_PRINCIPAL`) through to the
 * route; any other key goes on to what follows, in the end the 404 of a route that does not exist,
 * since a 403 would tell that it does.
 */
export const adminOnly: RequestHandler = (_req, res, next) => next(localsOf(res).principal.admin ? undefined : 'route');
