import { UnavailableResponseError } from '../errors/UnavailableResponseError.js';
import type { ResponseObject } from '../openai/responseObject.js';
import type { ResponsesContext } from './responsesContext.js';

/** The response as it stands: live for a background response in flight, else from the store; unavailable otherwise. */
export async function currentResponse(context: ResponsesContext, id: string): Promise<ResponseObject> {
  const live = context.detached.snapshot<ResponseObject>(id, 'response');
  if (live) return live;
  const stored = await context.store.responses.get<ResponseObject>(id);
  if (stored?.kind === 'response') return stored.response;
  throw new UnavailableResponseError(id, stored?.tombstone);
}
