import { toOpenAIError } from '../../errors/toOpenAIError.js';
import { UnavailableResponseError } from '../../errors/UnavailableResponseError.js';

/** A request refused over WebSocket, as the `error` event its client reads. */
export interface SocketErrorEvent {
  readonly type: 'error';
  readonly status: number;
  readonly code: string | null;
  readonly message: string;
  readonly param: string | null;
  readonly error: { readonly type: string; readonly code: string | null; readonly message: string; readonly param: string | null };
}

/**
 * `error` as an `error` event: the flat fields the SDK's `ResponseErrorEvent` types (`code`,
 * `message`, `param`) and the HTTP status with the nested envelope, which Codex reads. A
 * `previous_response_id` neither the connection nor the store knows is OpenAI's
 * `previous_response_not_found`, on which a client sends its whole input again.
 */
export function socketErrorEvent(error: unknown): SocketErrorEvent {
  const { status, body } = toOpenAIError(error);
  const chainLost = error instanceof UnavailableResponseError && error.chainOf !== undefined;
  const nested = { ...body.error, code: chainLost ? 'previous_response_not_found' : body.error.code };
  return { type: 'error', status, code: nested.code, message: nested.message, param: nested.param, error: nested };
}
