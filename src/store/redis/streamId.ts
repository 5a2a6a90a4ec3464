/** A log's sequence number as its Redis Stream entry id: `0-<seq + 1>`, so that XADD refuses a number already stored. */
export function entryId(seq: number): string {
  return `0-${seq + 1}`;
}

/** The sequence number a Redis Stream entry id stands for. */
export function seqOf(id: string): number {
  return Number(id.slice(id.indexOf('-') + 1)) - 1;
}
