import { toOpenAIError } from './toOpenAIError.js';

/** Anthropic's error envelope, for HTTP errors and for the `error` event of a failed stream. */
export interface AnthropicErrorBody {
  readonly type: 'error';
  readonly error: { readonly type: string; readonly message: string };
}

export interface AnthropicError {
  readonly status: number;
  readonly body: AnthropicErrorBody;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Anthropic's error type for a status; 503 (shedding, every upstream down) is answered as Anthropic's 529. */
function typeOf(status: number): string {
  switch (status) {
    case 401:
      return 'authentication_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 504:
      return 'timeout_error';
    case 529:
      return 'overloaded_error';
    default:
      return status < 500 ? 'invalid_request_error' : 'api_error';
  }
}

/**
 * `error` in Anthropic's envelope, with Anthropic's statuses: the status and headers OpenAI's
 * envelope has (`toOpenAIError`, the one place errors get their meaning), a 503 as 529, and
 * rxgate's own code kept at the end of the message, where a person reading it finds it.
 *
 * @example
 * toAnthropicError(new KeyLimitError(...)) // { status: 429, body: { type: 'error', error: { type: 'rate_limit_error', message: 'rxgate: … (rate_limit_exceeded)' } }, headers: { 'Retry-After': '12' } }
 */
export function toAnthropicError(error: unknown): AnthropicError {
  const { status: openaiStatus, body, headers } = toOpenAIError(error);
  const status = openaiStatus === 503 ? 529 : openaiStatus;
  const { message, code } = body.error;
  return {
    status,
    body: { type: 'error', error: { type: typeOf(status), message: code === null ? message : `${message} (${code})` } },
    ...(headers ? { headers } : {}),
  };
}
