/** A log's sequence number as its Redis Stream entry id: `0-<seq + 1>`, so that XADD refuses a number already stored. */
export function entryId(seq: number): string {
  return `0-${seq + 1}`;
}

/** The sequence number a Redis Stream entry id stands for. */
export function seqOf(id: string): number {
  return Number(id.slice(id.indexOf('-') + 1)) - 1;
}

/** Whether stream entry id `id` comes after `than` (anything does after undefined). */
export function isLater(id: string, than: string | undefined): boolean {
  if (than === undefined) return true;
  const [ms, seq] = id.split('-').map(Number) as [number, number];
  const [thanMs, thanSeq] = than.split('-').map(Number) as [number, number];
  return ms > thanMs || (ms === thanMs && seq > thanSeq);
}
