import { RequestError } from '../errors/RequestError.js';
import type { RunStatus } from './runObject.js';

const STATUSES: ReadonlySet<string> = new Set<RunStatus>([
  'queued',
  'running',
  'waiting_for_approval',
  'stopping',
  'completed',
  'failed',
  'cancelled',
]);

/** What `GET /v1/runs` was asked for. */
export interface RunListQuery {
  readonly limit: number;
  readonly after: string | undefined;
  readonly status: RunStatus | undefined;
}

const invalid = (param: string, message: string) =>
  new RequestError(400, `invalid '${param}': ${message}`, 'invalid_request_error', param, 'invalid_value');

/** Checks `limit` (1 to 100, default 20), `after` (a run id) and `status` (one of a run's statuses); a bad one is a 400 naming it. */
export function parseRunListQuery(query: Record<string, unknown>): RunListQuery {
  const { limit = '20', after, status } = query;
  const size = typeof limit === 'string' && /^\d{1,3}$/.test(limit) ? Number(limit) : NaN;
  if (!(size >= 1 && size <= 100)) throw invalid('limit', 'limit must be an integer from 1 to 100');
  if (after !== undefined && (typeof after !== 'string' || after === '')) throw invalid('after', 'after must be a run id');
  if (status !== undefined && (typeof status !== 'string' || !STATUSES.has(status))) {
    throw invalid('status', `status must be one of ${[...STATUSES].join(', ')}`);
  }
  return { limit: size, after, status: status as RunStatus | undefined };
}
