import { RxgateError } from './RxgateError.js';

/** What went wrong with the upstream LLM; each kind becomes its own error `code`. */
export type UpstreamErrorKind =
  | 'unreachable'
  | 'timeout'
  | 'connect_timeout'
  | 'first_byte_timeout'
  | 'first_token_timeout'
  | 'idle_timeout'
  | 'unauthorized'
  | 'rate_limited'
  | 'bad_status'
  | 'not_sse'
  | 'malformed_frame'
  | 'dropped'
  | 'upstream_error';

const TIMEOUTS: ReadonlySet<UpstreamErrorKind> = new Set([
  'timeout',
  'connect_timeout',
  'first_byte_timeout',
  'first_token_timeout',
  'idle_timeout',
]);

export interface UpstreamErrorOptions extends ErrorOptions {
  /** The `error.code` of the upstream's own error body (`context_length_exceeded`, `content_filter`). */
  readonly upstreamCode?: string;
  /** What the upstream's `Retry-After` asked for, in milliseconds from when it answered. */
  readonly retryAfterMs?: number;
}

/** The upstream LLM endpoint failed; `status` is its HTTP status when it answered with one. */
export class UpstreamError extends RxgateError {
  readonly upstreamCode?: string;
  readonly retryAfterMs?: number;

  constructor(
    readonly kind: UpstreamErrorKind,
    message: string,
    readonly status?: number,
    options: UpstreamErrorOptions = {},
  ) {
    super(`upstream ${message}`, options);
    this.upstreamCode = options.upstreamCode;
    this.retryAfterMs = options.retryAfterMs;
  }

  get isTimeout(): boolean {
    return TIMEOUTS.has(this.kind);
  }
}
