import { RequestError } from '../errors/RequestError.js';

/** One page of a list, in OpenAI's cursor shape. */
export interface ListPage<T extends { readonly id: string }> {
  readonly object: 'list';
  readonly data: readonly T[];
  readonly first_id: string | null;
  readonly last_id: string | null;
  readonly has_more: boolean;
}

const invalid = (param: string, message: string) =>
  new RequestError(400, `invalid '${param}': ${message}`, 'invalid_request_error', param, 'invalid_value');

/**
 * The page of `items` that a list query asks for, as OpenAI pages its lists: `order` (`desc`,
 * the default, newest first, or `asc`), `limit` (1 to 100, default 20) and `after` (the id of the
 * item the page starts after, in that order); a bad value is a 400 naming it.
 */
export function toListPage<T extends { readonly id: string }>(items: readonly T[], query: Record<string, unknown>): ListPage<T> {
  const { order = 'desc', limit = '20', after } = query;
  if (order !== 'asc' && order !== 'desc') throw invalid('order', 'order must be "asc" or "desc"');
  const size = typeof limit === 'string' && /^\d{1,3}$/.test(limit) ? Number(limit) : NaN;
  if (!(size >= 1 && size <= 100)) throw invalid('limit', 'limit must be an integer from 1 to 100');
  const ordered = order === 'asc' ? [...items] : [...items].reverse();
  let start = 0;
  if (after !== undefined) {
    const index = ordered.findIndex((item) => item.id === after);
    if (typeof after !== 'string' || index < 0) throw invalid('after', `no item '${String(after)}' in this list`);
    start = index + 1;
  }
  const data = ordered.slice(start, start + size);
  return {
    object: 'list',
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: start + size < ordered.length,
  };
}
