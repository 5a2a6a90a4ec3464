import { once } from 'node:events';
import { connect, type Socket } from 'node:net';

export interface RawExchange {
  /** Everything the server sent before it closed the connection (or `waitMs` passed). */
  readonly text: string;
  /** The status of the first response line, or undefined if none came. */
  readonly status: number | undefined;
  /** Whether the server closed the connection within `waitMs`. */
  readonly closed: boolean;
}

/** Opens a raw TCP connection to an `http://host:port` origin. */
export async function openSocket(origin: string): Promise<Socket> {
  const { hostname, port } = new URL(origin);
  const socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
  await once(socket, 'connect');
  return socket;
}

/** Resolves once the server has sent `text` on `socket` (in one read or across several); listen before asking. */
export function received(socket: Socket, text: string): Promise<void> {
  return new Promise((resolve) => {
    let seen = '';
    const onData = (part: Buffer | string) => {
      seen += part.toString();
      if (!seen.includes(text)) return;
      socket.off('data', onData);
      resolve();
    };
    socket.on('data', onData);
  });
}

/** Collects what the server sends on `socket` until it closes its side or `waitMs` pass. */
export function collect(socket: Socket, waitMs: number): Promise<RawExchange> {
  return new Promise((resolve) => {
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (part: string) => (text += part));
    socket.on('error', () => undefined);
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ text, status: match ? Number(match[1]) : undefined, closed });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    // The client is half-open: the server's FIN is an 'end', and that is the server closing.
    socket.once('end', () => finish(true));
    socket.once('close', () => finish(true));
  });
}

/** Sends `parts` (with `gapMs` between them) on a fresh connection and collects the answer. */
export async function exchange(
  origin: string,
  parts: readonly (string | Buffer)[],
  { gapMs = 0, waitMs = 2_000, halfClose = false } = {},
): Promise<RawExchange> {
  const socket = await openSocket(origin);
  const answer = collect(socket, waitMs);
  for (const part of parts) {
    if (socket.destroyed) break;
    socket.write(part);
    if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  if (halfClose && !socket.destroyed) socket.end();
  return answer;
}

/** The head of a POST to the chat route; `length` undefined sends the body chunked. */
export function postHead(length: number | undefined, contentType = 'application/json'): string {
  const framing = length === undefined ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`;
  return `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${contentType}\r\n${framing}\r\n\r\n`;
}

/** One chunk of a chunked body. */
export const chunked = (part: string | Buffer) =>
  Buffer.concat([Buffer.from(`${Buffer.byteLength(part).toString(16)}\r\n`), Buffer.from(part), Buffer.from('\r\n')]);
