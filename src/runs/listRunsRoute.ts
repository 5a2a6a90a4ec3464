import type { RouteHandler } from '../serving/routeHandler.js';
import { localsOf } from '../serving/requestLocals.js';
import { mayAccess } from '../principal.js';
import { RequestError } from '../errors/RequestError.js';
import type { RunObject } from './runObject.js';
import { parseRunListQuery } from './runListQuery.js';
import type { RunsContext } from './runsContext.js';
import { isUnfinished } from './currentRun.js';
import { runFromLog } from './runFromLog.js';
import { shownRun } from './shownRun.js';

// The store is read in pages this size until a filtered page is full.
const STORE_PAGE = 100;

/**
 * `GET /v1/runs`: the runs the caller may see, newest first, of every instance sharing the store;
 * `limit` (1 to 100, default 20), `after` (the last run id of the previous page), `status`. A run
 * in flight here is shown live; one in flight elsewhere as its log tells it, as `GET /v1/runs/{id}`
 * shows it (the concurrent-run cap bounds how many logs a list reads).
 */
export const listRunsRoute =
  (context: RunsContext): RouteHandler =>
  async (req, res) => {
    const { limit, after, status } = parseRunListQuery(req.query);
    const { principal } = localsOf(res);
    if (after !== undefined) {
      const owner = await context.store.runs.owner(after);
      // Another's run reads exactly as a missing one.
      if (owner === undefined || !mayAccess(principal, owner)) {
        throw new RequestError(400, `invalid 'after': no run '${after}' in this list`, 'invalid_request_error', 'after', 'invalid_value');
      }
    }
    const data: RunObject[] = [];
    let cursor = after;
    for (let more = true; more && data.length <= limit;) {
      const page = await context.store.runs.list<RunObject>({ limit: STORE_PAGE, after: cursor });
      more = page.length === STORE_PAGE;
      cursor = page.at(-1)?.run.id;
      for (const { run: stored, owner } of page) {
        if (!mayAccess(principal, owner)) continue;
        const run =
          context.detached.snapshot<RunObject>(stored.id, 'run') ??
          (isUnfinished(stored) ? await runFromLog(context, stored) : shownRun(stored));
        if (status === undefined || run.status === status) data.push(run);
      }
    }
    const shown = data.slice(0, limit);
    res.json({
      object: 'list',
      data: shown,
      first_id: shown[0]?.id ?? null,
      last_id: shown.at(-1)?.id ?? null,
      has_more: data.length > limit,
    });
  };
