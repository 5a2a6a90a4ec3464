/** The part of a `ServerResponse` the writer needs; marble specs drive a fake one in virtual time. */
export interface SseSink {
  write(chunk: string | Uint8Array, callback: (error?: Error | null) => void): boolean;
  once(event: 'drain' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
}
