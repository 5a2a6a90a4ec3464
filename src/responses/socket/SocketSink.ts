import { EventEmitter } from 'node:events';
import type { WebSocket } from 'ws';
import type { SseSink } from '../../sse/sseSink.js';

/** Unsent bytes past which `write` says to wait for `'drain'`: a Node stream's own high-water mark. */
const HIGH_WATER_BYTES = 16 * 1024;
const NEWLINE = 0x0a;

/** The messages of one write: each newline-terminated frame (see `socketFrame`). */
function messagesOf(chunk: string | Uint8Array): (string | Buffer)[] {
  if (typeof chunk === 'string') return chunk.split('\n').slice(0, -1);
  const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  const messages: Buffer[] = [];
  for (let start = 0, end = bytes.indexOf(NEWLINE); end !== -1; start = end + 1, end = bytes.indexOf(NEWLINE, start)) {
    messages.push(bytes.subarray(start, end));
  }
  return messages;
}

/**
 * A WebSocket as the writer's sink (`writeTo`), so that a response over WebSocket goes through the
 * one pipeline an SSE response does: each frame of a write goes out as one text message. `write`
 * says false while more than a stream's high-water mark is unsent, and `'drain'` follows once the
 * socket has sent what it owed: a reader that stops reading is bounded by `RXGATE_MAX_BUFFERED_BYTES`
 * exactly as a slow SSE client is. `'close'` is the socket's.
 */
export class SocketSink extends EventEmitter implements SseSink {
  #waiting = false;

  constructor(private readonly socket: WebSocket) {
    super();
    socket.once('close', () => this.emit('close'));
  }

  write(chunk: string | Uint8Array, callback: (error?: Error | null) => void): boolean {
    const messages = messagesOf(chunk);
    const last = messages.length - 1;
    messages.forEach((message, index) =>
      this.socket.send(message, { binary: false }, index === last ? (error) => this.sent(callback, error) : undefined),
    );
    if (this.socket.bufferedAmount <= HIGH_WATER_BYTES) return true;
    this.#waiting = true;
    return false;
  }

  private sent(callback: (error?: Error | null) => void, error: Error | undefined): void {
    callback(error);
    if (this.#waiting && this.socket.bufferedAmount <= HIGH_WATER_BYTES) {
      this.#waiting = false;
      this.emit('drain');
    }
  }
}
