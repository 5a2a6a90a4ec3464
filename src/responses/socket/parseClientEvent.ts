import type { RawData } from 'ws';
import { RequestError } from '../../errors/RequestError.js';
import { unsupportedParameter } from '../../errors/unsupportedParameter.js';

/** A `response.create` event: its body as `POST /v1/responses` takes it, streamed. */
export interface CreateEvent {
  readonly body: Record<string, unknown>;
  /** `generate: false` (Codex's warm-up): the response is prepared and answered with no model call. */
  readonly generate: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One client message of a Responses WebSocket: a text message holding a `response.create` event.
 * `stream` is implied (a `false` is read as `true`); `background` is refused, since a response
 * over WebSocket runs while its connection holds it. What else is wrong is the body's to refuse.
 */
export function parseClientEvent(data: RawData, isBinary: boolean): CreateEvent {
  if (isBinary)
    throw new RequestError(
      400,
      'send each event as a text message of JSON, not a binary one',
      'invalid_request_error',
      null,
      'invalid_event',
    );
  let event: unknown;
  try {
    event = JSON.parse(String(data));
  } catch {
    throw new RequestError(400, 'the message is not valid JSON', 'invalid_request_error', null, 'invalid_json');
  }
  if (!isObject(event)) throw new RequestError(400, 'an event must be a JSON object', 'invalid_request_error', null, 'invalid_event');
  const { type, generate, ...body } = event;
  if (type !== 'response.create') {
    throw new RequestError(
      400,
      `unknown event type ${JSON.stringify(type)}: rxgate takes "response.create"`,
      'invalid_request_error',
      'type',
      'invalid_event',
    );
  }
  if (generate !== undefined && generate !== null && typeof generate !== 'boolean') {
    throw new RequestError(400, "invalid 'generate': must be a boolean", 'invalid_request_error', 'generate', 'invalid_value');
  }
  if (body.background === true) {
    throw unsupportedParameter('background', 'a response over WebSocket runs while its connection holds it; send it to POST /v1/responses');
  }
  return { body: { ...body, stream: true }, generate: generate !== false };
}
