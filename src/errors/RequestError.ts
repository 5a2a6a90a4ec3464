import { RxgateError } from './RxgateError.js';

export type RequestErrorType = 'invalid_request_error' | 'authentication_error' | 'not_found_error' | 'rate_limit_error' | 'server_error';

/** A request rxgate refuses before any response byte was sent; it becomes an HTTP error. */
export class RequestError extends RxgateError {
  constructor(
    readonly status: number,
    message: string,
    readonly type: RequestErrorType = 'invalid_request_error',
    readonly param: string | null = null,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}
