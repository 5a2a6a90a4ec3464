import { RxgateError } from './RxgateError.js';

/** What went wrong with the upstream LLM; each kind becomes its own error `code`. */
export type UpstreamErrorKind =
  | 'unreachable'
  | 'timeout'
  | 'first_token_timeout'
  | 'unauthorized'
  | 'rate_limited'
  | 'bad_status'
  | 'not_sse'
  | 'malformed_frame'
  | 'dropped'
  | 'upstream_error';

/** The upstream LLM endpoint failed; `status` is its HTTP status when it answered with one. */
export class UpstreamError extends RxgateError {
  constructor(
    readonly kind: UpstreamErrorKind,
    message: string,
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super(`upstream ${message}`, options);
  }

  get isTimeout(): boolean {
    return this.kind === 'timeout' || this.kind === 'first_token_timeout';
  }
}
