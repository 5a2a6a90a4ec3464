import type { Request, Response } from 'express';
import type { Logger } from '../logger.js';
import type { Principal } from '../principal.js';
import type { RunTrace } from '../tracing/RunTrace.js';

/** What rxgate keeps on `res.locals` for one request: who it is, for every log line. */
export interface RequestLocals {
  requestId: string;
  logger: Logger;
  /** `performance.now()` when the request arrived. */
  startedAt: number;
  /** Who the request acts for: set by authentication; `DEFAULT_PRINCIPAL` on a server without keys. */
  principal: Principal;
  /** The request's server span, for the spans below it; undefined with tracing off. */
  trace: RunTrace | undefined;
  /**
   * Set for an agent request of a key (chat completions, responses, runs): a detached run it
   * started keeps the key's stream slot (`maxStreams`) until `ended` settles, not only until the response closes.
   */
  keepSlotUntil?: (ended: Promise<void>) => void;
  /** The envelope its errors are answered in: Anthropic's for the Messages API (`anthropicDialect`), OpenAI's otherwise. */
  dialect: 'openai' | 'anthropic';
}

export const localsOf = (res: Response): RequestLocals => res.locals as RequestLocals;

/** The matched route pattern, never the raw path: metric labels must not grow with ids. */
export const routeOf = (req: Request): string => (req.route ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched');
