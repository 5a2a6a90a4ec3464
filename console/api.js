const KEY = 'rxgate.apiKey';

/** An error the API answered with its envelope (`{"error": {"message", "code"}}`), or a bare HTTP status. */
export class ApiError extends Error {
  constructor(status, body) {
    super(body?.error?.message ?? `the server answered HTTP ${status}`);
    this.status = status;
    this.code = body?.error?.code ?? null;
  }
}

/** The API key of this tab, if the user gave one (kept for the tab's life only). */
export const storedKey = () => sessionStorage.getItem(KEY);

export function storeKey(key) {
  if (key) sessionStorage.setItem(KEY, key);
  else sessionStorage.removeItem(KEY);
}

function headers(extra, key = storedKey()) {
  return key ? { ...extra, Authorization: `Bearer ${key}` } : extra;
}

async function failure(response) {
  return new ApiError(response.status, await response.json().catch(() => null));
}

/** Calls the API with JSON in and out; a non-2xx answer throws an `ApiError`. `key` overrides the stored key. */
export async function call(method, path, body, { key } = {}) {
  const response = await fetch(path, {
    method,
    headers: headers(body === undefined ? {} : { 'Content-Type': 'application/json' }, key ?? storedKey()),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw await failure(response);
  return response.json();
}

/** Opens an event stream with `fetch` (EventSource cannot send `Authorization`), after `lastEventId` when given. */
export async function openEvents(path, { lastEventId, signal }) {
  const extra = { Accept: 'text/event-stream' };
  if (lastEventId !== undefined) extra['Last-Event-ID'] = String(lastEventId);
  const response = await fetch(path, { headers: headers(extra), signal });
  if (!response.ok) throw await failure(response);
  return response;
}
