import { UpstreamError, type UpstreamErrorKind } from '../../errors/UpstreamError.js';

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, errors } = error as { code?: unknown; errors?: unknown };
  if (typeof code === 'string') return code;
  // Happy-eyeballs connects report an AggregateError, one error per address tried.
  return Array.isArray(errors) ? errorCode(errors[0]) : undefined;
}

// undici's own timeouts, as the dispatcher of an upstream sets them (connectMs, firstByteMs, idleMs).
const UNDICI_TIMEOUTS: Readonly<Record<string, { kind: UpstreamErrorKind; what: string } | undefined>> = {
  UND_ERR_CONNECT_TIMEOUT: { kind: 'connect_timeout', what: 'did not accept the connection in time (connectMs)' },
  UND_ERR_HEADERS_TIMEOUT: { kind: 'first_byte_timeout', what: 'sent no response headers in time (firstByteMs)' },
  UND_ERR_BODY_TIMEOUT: { kind: 'idle_timeout', what: 'went silent in the middle of its answer for too long (idleMs)' },
};

/**
 * The `UpstreamError` behind a failed upstream request or a failed body read: nothing listening on the
 * port, a connection reset before the response, or one reset while the body was streaming.
 */
export function toUpstreamError(error: unknown, url: string, phase: 'connect' | 'stream', status?: number): UpstreamError {
  if (error instanceof UpstreamError) return error;
  const cause = (error as { cause?: unknown } | undefined)?.cause ?? error;
  const code = errorCode(cause) ?? errorCode(error);
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return new UpstreamError(
      'unreachable',
      `at ${url} is unreachable (${code}); check the base URL and that the server is running`,
      undefined,
      { cause: error },
    );
  }
  const timeout = UNDICI_TIMEOUTS[code ?? ''];
  if (timeout) return new UpstreamError(timeout.kind, `at ${url} ${timeout.what}`, status, { cause: error });
  const detail = code ?? (cause instanceof Error ? cause.message : String(cause));
  const message =
    phase === 'connect'
      ? `at ${url} closed the connection before answering (${detail})`
      : `dropped the connection in the middle of the stream (${detail})`;
  return new UpstreamError('dropped', message, status, { cause: error });
}
