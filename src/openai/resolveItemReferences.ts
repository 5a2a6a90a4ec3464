import { RequestError } from '../errors/RequestError.js';
import type { Principal } from '../principal.js';
import { mayReadResponse } from './assertResponseOwner.js';
import type { Store } from '../store/Store.js';
import { placeOfItem } from './itemIds.js';
import { parseStoredItem, type InputItem } from './parseResponseInput.js';
import type { ResponseObject } from './responseObject.js';
import { storedInputItems } from './storedInputItems.js';
import type { SourcedItem } from './toChatMessages.js';

async function findItem(store: Store, id: string, param: string, principal: Principal): Promise<InputItem> {
  const place = placeOfItem(id);
  // Another key's item, even a deleted one, reads exactly as an item that does not exist.
  const visible = place !== undefined && (await mayReadResponse(store, place.responseId, principal));
  const stored = visible ? await store.responses.get<ResponseObject>(place.responseId) : undefined;
  if (stored?.kind === 'tombstone') {
    const why = stored.tombstone === 'evicted' ? 'evicted from the store by the retention policy' : 'deleted';
    throw new RequestError(
      404,
      `item '${id}' belonged to response '${place!.responseId}', which was ${why}; send the item itself instead of a reference`,
      'invalid_request_error',
      param,
      `item_${stored.tombstone}`,
    );
  }
  const raw =
    stored && place
      ? place.side === 'output'
        ? stored.response.output[place.index]
        : storedInputItems(place.responseId, stored.turn)[place.index]
      : undefined;
  const item = raw?.id === id ? parseStoredItem(raw) : undefined;
  if (!item) {
    throw new RequestError(
      404,
      `item '${id}' not found: an item_reference names an item of a stored response (store: true)`,
      'invalid_request_error',
      param,
      'item_not_found',
    );
  }
  return item;
}

/**
 * The input items with each `item_reference` replaced by the stored item it names (an output item
 * of a stored response, or one of its input items), keeping the index of the reference; an
 * unknown, evicted or deleted item is a 404 naming the reference. A second reference to the same
 * item adds nothing (the Vercel AI SDK references a server tool's call and its result by one id).
 * An item of a response `principal` may not see is as unknown as one that never was.
 * `field` names the items in errors. Default: `input`.
 */
export async function resolveItemReferences(
  items: readonly InputItem[],
  store: Store,
  principal: Principal,
  field = 'input',
): Promise<SourcedItem[]> {
  const seen = new Set<string>();
  const resolved: SourcedItem[] = [];
  for (const [source, item] of items.entries()) {
    if (item.type !== 'item_reference') resolved.push({ item, source });
    else if (!seen.has(item.id)) {
      seen.add(item.id);
      resolved.push({ item: await findItem(store, item.id, `${field}[${source}].id`, principal), source });
    }
  }
  return resolved;
}
