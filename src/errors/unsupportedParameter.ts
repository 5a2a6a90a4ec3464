import { RequestError } from './RequestError.js';

/**
 * The 400 for a field of OpenAI's API that rxgate knows but cannot honour, naming it as OpenAI's
 * `param` does: refused rather than dropped, so that a client never gets less than it asked for
 * without being told.
 *
 * @example
 * unsupportedParameter('n', 'rxgate returns one choice per request; send n: 1 or leave it out');
 */
export function unsupportedParameter(param: string, why: string): RequestError {
  return new RequestError(400, `unsupported parameter: '${param}': ${why}`, 'invalid_request_error', param, 'unsupported_parameter');
}
