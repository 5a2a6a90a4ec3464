import { AgentError } from './AgentError.js';
import { DeadlineError } from './DeadlineError.js';
import { RequestError } from './RequestError.js';
import { UpstreamError } from './UpstreamError.js';

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
}

function envelope(status: number, message: string, type: string, code: string | null, param: string | null = null): OpenAIError {
  return { status, body: { error: { message, type, param, code } } };
}

/** The one place where rxgate's errors get their wire shape. Anything unknown is a 500 that leaks no detail. */
export function toOpenAIError(error: unknown): OpenAIError {
  if (error instanceof RequestError) {
    return envelope(error.status, error.message, error.type, error.code, error.param);
  }
  if (error instanceof UpstreamError) {
    return envelope(error.isTimeout ? 504 : 502, error.message, 'upstream_error', `upstream_${error.kind}`);
  }
  if (error instanceof DeadlineError) {
    return envelope(504, error.message, 'timeout_error', error.code);
  }
  if (error instanceof AgentError) {
    return envelope(500, error.message, 'server_error', error.code);
  }
  return envelope(500, 'rxgate: internal error while running the agent', 'server_error', 'internal_error');
}
