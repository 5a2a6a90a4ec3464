import { RequestError } from './RequestError.js';

/**
 * The 404 OpenAI answers for a model it does not have; `advertised` says which this server has
 * (`'smart', 'fast'`). Without it, for a model the asking key may not use: which it may is not told.
 */
export function modelNotFound(id: string, advertised?: string): RequestError {
  return new RequestError(
    404,
    `the model '${id}' does not exist${advertised === undefined ? '' : `; this server advertises ${advertised}`}`,
    'invalid_request_error',
    'model',
    'model_not_found',
  );
}
