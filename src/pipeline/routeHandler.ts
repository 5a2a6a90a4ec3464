import type { Request, Response } from 'express';
import type { Served } from './served.js';

/** A route's work: it answers, and resolves to how serving went when it ran an agent or a stream. */
export type RouteHandler = (req: Request, res: Response) => Served | void | Promise<Served | void>;
