/** What the client wants from a server, for `triageInbound`. */
export interface InboundInterest {
  /** The notification methods the client acts on. */
  readonly notifications: ReadonlySet<string>;
  /** Whether the client still waits for the answer to its request `id`. */
  awaits(id: string | number): boolean;
}

/** `deliver` it, `drop` it, or deliver only the latest of the messages with the same key (any other string). */
export type Triage = 'deliver' | 'drop' | (string & {});

const PROGRESS = 'notifications/progress';

/**
 * Sorts one message a server sent (parsed JSON, not yet validated) before the MCP SDK spends its
 * schema checks on it: a notification the client does not act on (log lines, resource updates)
 * and an answer to no request the client is waiting for are dropped; progress of the same token
 * and a repeated `list_changed` of the same list are keyed, so that of a run of them only the
 * latest is delivered (each says everything the ones before it said). Everything else, requests
 * and whatever is not a JSON-RPC message included, is delivered: the SDK answers or reports it.
 *
 * ```
 * {"method":"notifications/message",...}                        drop
 * {"method":"notifications/progress","params":{"progressToken":3}} "notifications/progress 3"
 * {"method":"notifications/tools/list_changed"}                  "notifications/tools/list_changed"
 * {"id":"never-asked","result":{}}                              drop
 * {"id":7,"method":"roots/list"}                                deliver
 * ```
 */
export function triageInbound(message: unknown, interest: InboundInterest): Triage {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return 'deliver';
  const { method, id } = message as { method?: unknown; id?: unknown };
  if (method === undefined) {
    return (typeof id === 'string' || typeof id === 'number') && !interest.awaits(id) ? 'drop' : 'deliver';
  }
  if (typeof method !== 'string' || id !== undefined) return 'deliver';
  if (!interest.notifications.has(method)) return 'drop';
  if (method === PROGRESS) {
    const token = (message as { params?: { progressToken?: unknown } }).params?.progressToken;
    return `${PROGRESS} ${JSON.stringify(token)}`;
  }
  return method.endsWith('/list_changed') ? method : 'deliver';
}
