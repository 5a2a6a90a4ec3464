/** Where an item sits: in a response's output, or in the input items it was given. */
export interface ItemPlace {
  readonly responseId: string;
  readonly side: 'input' | 'output';
  readonly index: number;
}

const RESPONSE_ID = /^resp_([0-9a-f]{32})$/;
const ITEM_ID = /^[a-z]+_([0-9a-f]{32})_([io])(\d{1,6})$/;

/**
 * The id of the item at `index` of a response's input or output: `msg_<hex>_o0`, `fc_<hex>_i3`.
 * It carries its response's id, so that an `item_reference` finds the stored response that holds
 * the item without an index of items. Unique, since a response id is.
 *
 * @example
 * itemId('msg', 'resp_0123...cdef', 'output', 0); // 'msg_0123...cdef_o0'
 */
export function itemId(prefix: string, responseId: string, side: ItemPlace['side'], index: number): string {
  const hex = RESPONSE_ID.exec(responseId)?.[1] ?? responseId.replace(/^resp_/, '');
  return `${prefix}_${hex}_${side === 'input' ? 'i' : 'o'}${index}`;
}

/** Where the item of an id made by `itemId` is; undefined for any other id. */
export function placeOfItem(id: string): ItemPlace | undefined {
  const match = ITEM_ID.exec(id);
  if (!match) return undefined;
  return { responseId: `resp_${match[1]}`, side: match[2] === 'i' ? 'input' : 'output', index: Number(match[3]) };
}
