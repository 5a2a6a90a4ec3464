import { RequestAbort } from '../upstream/RequestAbort.js';

/** What a run's model calls need of its abort: whether it came, and a listener for it. An `AbortSignal` is one. */
export interface AbortNotice {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { readonly once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * Aborts one run, once, with a reason: a `RequestAbort` (its listeners told once, on `'abort'`)
 * that listens the way an `AbortSignal` does, and makes an `AbortSignal` only for work that asks
 * for one (`signal`: a tool, an MCP call, an agent's own `start`). Node 20 takes about 3 µs to make
 * an `AbortController` and its signal, and 5 µs with a listener added and removed, on every
 * request, where the model calls need only the notice.
 */
export class RunAbort extends RequestAbort implements AbortNotice {
  reason: unknown = undefined;
  #controller: AbortController | undefined = undefined;

  /** An `AbortSignal` that aborts with this, with the same reason; already aborted if this was. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.reason);
    }
    return this.#controller.signal;
  }

  override abort(reason?: unknown): void {
    if (this.aborted) return;
    this.reason = reason;
    this.#controller?.abort(reason);
    super.abort();
  }

  /** Every listener is told once, as `{ once: true }` would have it: an abort comes only once. */
  addEventListener(_type: 'abort', listener: () => void, _options?: { readonly once?: boolean }): void {
    this.on('abort', listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.off('abort', listener);
  }
}
