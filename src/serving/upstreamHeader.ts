import type { Response } from 'express';
import type { AttemptObserver } from '../upstream/AttemptObserver.js';

export const UPSTREAM_HEADER = 'x-rxgate-upstream';

/**
 * Names the upstream and its own model in `x-rxgate-upstream` (`upstream=backup; model=qwen3-4b`)
 * while the headers are not sent: each attempt overwrites the last, so an answer carries the one
 * that gave it. For an answer whose headers go out with it whole (non-streaming): a stream's go
 * out with its first frame, before a failover may still change the upstream, so a stream names none.
 */
export function upstreamHeader(res: Response): AttemptObserver {
  return {
    attemptStarted({ upstream, model }) {
      if (!res.headersSent) res.setHeader(UPSTREAM_HEADER, `upstream=${upstream}; model=${model}`);
    },
    attemptEnded: () => undefined,
  };
}
