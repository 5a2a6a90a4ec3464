import type { RouteHandler } from '../pipeline/routeHandler.js';
import { localsOf } from '../pipeline/requestLocals.js';
import { mayAccess } from '../principal.js';
import { RequestError } from '../errors/RequestError.js';
import type { RunObject } from './runObject.js';
import { parseRunListQuery } from './runListQuery.js';
import type { RunsContext } from './runsContext.js';
import { shownRun } from './shownRun.js';

/** A stored run and who made it (none: made before keys, `default`'s). */
type OwnedRun = RunObject & { readonly owner?: string };

// The store is read in pages this size until a filtered page is full.
const STORE_PAGE = 100;

/**
 * `GET /v1/runs`: the runs the caller may see, newest first, of every instance sharing the store;
 * `limit` (1 to 100, default 20), `after` (the last run id of the previous page), `status`. A run
 * in flight here is shown live; one in flight elsewhere as last stored (its output is in
 * `GET /v1/runs/{id}`).
 */
export const listRunsRoute =
  (context: RunsContext): RouteHandler =>
  async (req, res) => {
    const { limit, after, status } = parseRunListQuery(req.query);
    const { principal } = localsOf(res);
    if (after !== undefined) {
      const cursor = await context.store.runs.get<OwnedRun>(after);
      // Another's run reads exactly as a missing one.
      if (!cursor || !mayAccess(principal, cursor.owner)) {
        throw new RequestError(400, `invalid 'after': no run '${after}' in this list`, 'invalid_request_error', 'after', 'invalid_value');
      }
    }
    const data: RunObject[] = [];
    let cursor = after;
    for (let more = true; more && data.length <= limit;) {
      const page = await context.store.runs.list<OwnedRun>({ limit: STORE_PAGE, after: cursor });
      more = page.length === STORE_PAGE;
      cursor = page.at(-1)?.id;
      for (const stored of page) {
        if (!mayAccess(principal, stored.owner)) continue;
        const run = context.detached.snapshot<RunObject>(stored.id, 'run') ?? shownRun(stored);
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
