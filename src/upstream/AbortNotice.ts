/** What a run's model calls need of its abort: whether it came, and a listener for it. An `AbortSignal` is one. */
export interface AbortNotice {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { readonly once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
