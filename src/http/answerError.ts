import type { Response } from 'express';
import { RequestError } from '../errors/RequestError.js';
import { RxgateError } from '../errors/RxgateError.js';
import { localsOf } from '../serving/requestLocals.js';
import { sendError } from '../serving/sendError.js';

/** body-parser's error types, turned into what an OpenAI client expects. */
function fromBodyParser(error: { type?: string; limit?: number; status?: number }): RequestError | undefined {
  switch (error.type) {
    case 'entity.parse.failed':
      return new RequestError(400, 'the request body is not valid JSON', 'invalid_request_error', null, 'invalid_json');
    case 'entity.too.large':
      return new RequestError(413, `the request body is larger than ${error.limit} bytes`, 'invalid_request_error', null, 'body_too_large');
    case 'encoding.unsupported':
      return new RequestError(
        415,
        'the request body has a Content-Encoding rxgate cannot decode; send it plain, or as gzip, deflate or br',
        'invalid_request_error',
        null,
        'unsupported_encoding',
      );
    case 'charset.unsupported':
      return new RequestError(415, 'the request body must be UTF-8 JSON', 'invalid_request_error', null, 'unsupported_encoding');
    case 'request.size.invalid':
      return new RequestError(400, 'the request body is shorter than its Content-Length', 'invalid_request_error', null, 'invalid_body');
    default:
      // Any other client error it reports (a Content-Encoding the body does not decompress with, say) is still the client's, not a 500.
      return error.status !== undefined && error.status >= 400 && error.status < 500
        ? new RequestError(
            error.status,
            'the request body could not be read (check its Content-Encoding)',
            'invalid_request_error',
            null,
            'invalid_body',
          )
        : undefined;
  }
}

/** The router's refusal of a path parameter that does not decode (`/v1/responses/%zz`): a bad URL, not a bad body. */
const isUndecodableParam = (error: unknown): boolean => error instanceof URIError && (error as { status?: number }).status === 400;

/** `error` as rxgate's own error when it is a client's mistake that Express or body-parser found; otherwise itself. */
function asRxgateError(error: unknown): unknown {
  if (error instanceof RxgateError) return error;
  if (isUndecodableParam(error))
    return new RequestError(400, 'the request path is not valid percent-encoding', 'invalid_request_error', null, 'bad_http_request');
  return fromBodyParser(error as { type?: string }) ?? error;
}

/** Answers with the OpenAI envelope of `error`; an error that is not rxgate's own nor body-parser's is logged as one. */
export function answerError(res: Response, error: unknown): void {
  const answered = asRxgateError(error);
  if (!(answered instanceof RxgateError)) localsOf(res).logger.error({ err: error }, 'unhandled error');
  sendError(res, answered);
}
