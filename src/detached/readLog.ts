import type { EventLog, LoggedEvent } from '../store/EventLog.js';

const PAGE = 1_000;

/** Hands every stored event of log `id` to `visit`, in order, a page at a time. */
export async function readLog(log: EventLog, id: string, visit: (event: LoggedEvent) => void): Promise<void> {
  for (let after = -1; ;) {
    const page = await log.read(id, after, PAGE);
    page.forEach(visit);
    if (page.length < PAGE) return;
    after = page.at(-1)!.seq;
  }
}
