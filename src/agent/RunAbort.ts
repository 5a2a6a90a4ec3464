/** What a run's model calls need of its abort: whether it came, and a listener for it. An `AbortSignal` is one. */
export interface AbortNotice {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { readonly once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * Aborts one run, once, with a reason. Its listeners are plain functions, each told once; an
 * `AbortSignal` is made only for work that asks for one (`signal`: a tool, an MCP call, an agent's
 * own `start`). Node 20 takes about 3 µs to make an `AbortController` and its signal, and 5 µs with
 * a listener added and removed, on every request, where the model calls need only the notice.
 */
export class RunAbort implements AbortNotice {
  aborted = false;
  reason: unknown = undefined;
  #listeners: readonly (() => void)[] = [];
  #controller: AbortController | undefined = undefined;

  /** An `AbortSignal` that aborts with this, with the same reason; already aborted if this was. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.reason);
    }
    return this.#controller.signal;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.#listeners;
    this.#listeners = [];
    this.#controller?.abort(reason);
    for (const listener of listeners) listener();
  }

  /** Every listener is told once, as `{ once: true }` would have it: an abort comes only once. */
  addEventListener(_type: 'abort', listener: () => void, _options?: { readonly once?: boolean }): void {
    if (!this.aborted) this.#listeners = this.#listeners.concat([listener]);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.#listeners = this.#listeners.filter((told) => told !== listener);
  }
}
