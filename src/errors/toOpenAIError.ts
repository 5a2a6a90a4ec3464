import { AgentError } from './AgentError.js';
import { BudgetExceededError } from './BudgetExceededError.js';
import { CapacityError } from './CapacityError.js';
import { ChainTooLongError } from './ChainTooLongError.js';
import { ConversationTooLargeError } from './ConversationTooLargeError.js';
import { DeadlineError } from './DeadlineError.js';
import { InvalidApiKeyError } from './InvalidApiKeyError.js';
import { KeyLimitError } from './KeyLimitError.js';
import { InterruptedError } from './InterruptedError.js';
import { RequestError } from './RequestError.js';
import { StoreError } from './StoreError.js';
import { UnavailableResponseError } from './UnavailableResponseError.js';
import { UpstreamError } from './UpstreamError.js';
import { UpstreamsExhaustedError } from './UpstreamsExhaustedError.js';

/** The OpenAI error envelope, used for HTTP errors and for the error frame of a failed stream. */
export interface OpenAIErrorBody {
  readonly error: {
    readonly message: string;
    readonly type: string;
    readonly param: string | null;
    readonly code: string | null;
  };
}

export interface OpenAIError {
  readonly status: number;
  readonly body: OpenAIErrorBody;
  /** Sent with the status when the error is answered over HTTP. */
  readonly headers?: Readonly<Record<string, string>>;
}

function envelope(status: number, message: string, type: string, code: string | null, param: string | null = null): OpenAIError {
  return { status, body: { error: { message, type, param, code } } };
}

/** The one place where rxgate's errors get their wire shape. Anything unknown is a 500 that leaks no detail. */
export function toOpenAIError(error: unknown): OpenAIError {
  if (error instanceof RequestError) {
    return envelope(error.status, error.message, error.type, error.code, error.param);
  }
  if (error instanceof InvalidApiKeyError) {
    return envelope(401, error.message, 'invalid_request_error', 'invalid_api_key');
  }
  if (error instanceof UpstreamsExhaustedError) {
    const { last, retryAfterMs } = error;
    const headers: Record<string, string> = { 'x-should-retry': 'false' };
    if (retryAfterMs !== undefined) headers['retry-after'] = String(Math.ceil(retryAfterMs / 1000));
    const code = last.kind === 'upstream_error' ? last.kind : `upstream_${last.kind}`;
    return { ...envelope(last.kind === 'rate_limited' ? 429 : 503, error.message, 'upstream_error', code), headers };
  }
  // A request the upstream refused for what it asks (a content filter, a bad parameter): its status and its reason.
  if (error instanceof UpstreamError && error.kind === 'bad_status' && error.upstreamCode && error.status! >= 400 && error.status! < 500) {
    return envelope(error.status!, error.message, 'invalid_request_error', error.upstreamCode);
  }
  if (error instanceof UpstreamError) {
    // The kind `upstream_error` (the upstream sent an error frame) already says where it came from.
    const code = error.kind === 'upstream_error' ? error.kind : `upstream_${error.kind}`;
    return envelope(error.isTimeout ? 504 : 502, error.message, 'upstream_error', code);
  }
  if (error instanceof DeadlineError) {
    return envelope(504, error.message, 'timeout_error', error.code);
  }
  if (error instanceof AgentError) {
    return envelope(500, error.message, 'server_error', error.code);
  }
  if (error instanceof InterruptedError) {
    return envelope(503, error.message, 'server_error', error.code);
  }
  if (error instanceof CapacityError) {
    return envelope(429, error.message, 'rate_limit_error', 'too_many_runs');
  }
  if (error instanceof KeyLimitError) {
    const limited = envelope(429, error.message, 'rate_limit_error', 'rate_limit_exceeded');
    return { ...limited, headers: { 'Retry-After': String(error.retryAfterSeconds) } };
  }
  if (error instanceof BudgetExceededError) {
    // `x-should-retry: false`: the openai SDK would otherwise sleep the whole Retry-After (days, for a monthly budget) and retry.
    const refused = envelope(429, error.message, 'insufficient_quota', 'budget_exceeded');
    return { ...refused, headers: { 'x-should-retry': 'false', 'Retry-After': String(error.retryAfterSeconds) } };
  }
  if (error instanceof UnavailableResponseError) {
    const param = error.chainOf === undefined ? null : 'previous_response_id';
    return envelope(
      404,
      error.message,
      'invalid_request_error',
      error.tombstone ? `response_${error.tombstone}` : 'response_not_found',
      param,
    );
  }
  if (error instanceof ChainTooLongError) {
    return envelope(400, error.message, 'invalid_request_error', 'chain_too_long', 'previous_response_id');
  }
  if (error instanceof ConversationTooLargeError) {
    return envelope(400, error.message, 'invalid_request_error', 'conversation_too_large', 'previous_response_id');
  }
  if (error instanceof StoreError) {
    return envelope(503, error.message, 'server_error', 'store_unavailable');
  }
  return envelope(500, 'rxgate: internal error while running the agent', 'server_error', 'internal_error');
}
