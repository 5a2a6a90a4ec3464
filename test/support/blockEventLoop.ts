/** Keeps this process's event loop busy for `ms`, as a burst of synchronous work would. */
export function blockEventLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}
