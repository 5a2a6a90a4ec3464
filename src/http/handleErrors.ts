import type { ErrorRequestHandler } from 'express';
import { RequestError } from '../errors/RequestError.js';
import { localsOf } from './requestContext.js';
import { sendError } from './sendError.js';

/** body-parser's error types, turned into what an OpenAI client expects. */
function fromBodyParser(error: { type?: string; limit?: number; status?: number }): RequestError | undefined {
  switch (error.type) {
    case 'entity.parse.failed':
      return new RequestError(400, 'the request body is not valid JSON', 'invalid_request_error', null, 'invalid_json');
    case 'entity.too.large':
      return new RequestError(413, `the request body is larger than ${error.limit} bytes`, 'invalid_request_error', null, 'body_too_large');
    case 'encoding.unsupported':
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

/** The last middleware: every error becomes an OpenAI envelope; only unknown ones are logged as errors. */
export const handleErrors: ErrorRequestHandler = (error: unknown, _req, res, _next) => {
  const known = error instanceof RequestError ? error : fromBodyParser(error as { type?: string });
  if (!known) localsOf(res).logger.error({ err: error }, 'unhandled error');
  sendError(res, known ?? error);
};
