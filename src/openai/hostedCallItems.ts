import type { HostedCallItem } from './responseObject.js';

/** The id prefix of each hosted call item, as OpenAI's ids start. */
export const HOSTED_CALL_ID_PREFIX: Readonly<Record<HostedCallItem['type'], string>> = { web_search_call: 'ws', file_search_call: 'fs' };

/** What a search tool's arguments ask for: its `query`, or its `queries`; nothing when they name neither. */
export function searchQueries(args: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return [];
  }
  if (typeof parsed !== 'object' || parsed === null) return [];
  const { query, queries } = parsed as { query?: unknown; queries?: unknown };
  if (typeof query === 'string') return [query];
  return Array.isArray(queries) ? queries.filter((entry): entry is string => typeof entry === 'string') : [];
}

/** A hosted call item as it starts: `in_progress`, with what the call searches for. */
export function startHostedCall(type: HostedCallItem['type'], id: string, args: string): HostedCallItem {
  const queries = searchQueries(args);
  if (type === 'file_search_call') return { id, type, status: 'in_progress', queries, results: null };
  return {
    id,
    type,
    status: 'in_progress',
    action: { type: 'search', queries, ...(queries[0] === undefined ? {} : { query: queries[0] }) },
  };
}

/** A hosted call item at its end. A web search cannot be `incomplete`: one cut short `failed`. */
export function endHostedCall(item: HostedCallItem, status: 'completed' | 'failed' | 'incomplete'): HostedCallItem {
  if (item.type === 'file_search_call') return { ...item, status };
  return { ...item, status: status === 'incomplete' ? 'failed' : status };
}
