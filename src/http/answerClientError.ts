import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { RequestError } from '../errors/RequestError.js';
import { toOpenAIError } from '../errors/toOpenAIError.js';

/** What Node's HTTP parser or its timeouts refused, as the request error a client reads. */
function toRequestError(error: NodeJS.ErrnoException): RequestError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new RequestError(431, 'the request headers are too large', 'invalid_request_error', null, 'headers_too_large');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new RequestError(
        413,
        'the chunk extensions of the request body are too large',
        'invalid_request_error',
        null,
        'body_too_large',
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new RequestError(
        408,
        'the request was not received in time (RXGATE_HEADERS_TIMEOUT_MS, RXGATE_REQUEST_TIMEOUT_MS)',
        'invalid_request_error',
        null,
        'request_timeout',
      );
    default:
      return new RequestError(
        400,
        `the request is not valid HTTP/1.1 (${error.code ?? 'parse error'})`,
        'invalid_request_error',
        null,
        'bad_http_request',
      );
  }
}

/**
 * The server's `clientError` listener: answers what Node refuses before any route sees a request
 * (a malformed request line, a duplicate `Content-Length`, `Transfer-Encoding` with
 * `Content-Length`, oversized headers, a request that timed out) with the OpenAI envelope, then
 * closes the connection. Nothing is written on a socket that can no longer take it, nor into a
 * response that has started (a pipelined request after a streaming one): that would corrupt it.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // Node's own default handler reads the socket's in-flight response the same way.
  const inFlight = (socket as { _httpMessage?: ServerResponse | null })._httpMessage;
  if (error.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
    const { status, body } = toOpenAIError(toRequestError(error));
    const json = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n` +
        `Connection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy();
}
