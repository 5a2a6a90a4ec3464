/**
 * `pass` wrapped so that at most one runs at a time: a call while one runs shares the single pass
 * queued after it, which starts once the running one ends (it sees everything that happened
 * before the call). Many callers at once cost two passes, not one each.
 */
export function onePassAtATime<T>(pass: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  let queued: Promise<T> | undefined;
  const start = (): Promise<T> => {
    const current = pass().finally(() => {
      if (running === current) running = undefined;
    });
    running = current;
    return current;
  };
  return () => {
    if (queued) return queued;
    if (!running) return start();
    const next = running
      .catch(() => undefined)
      .then(() => {
        queued = undefined;
        return start();
      });
    queued = next;
    return next;
  };
}
