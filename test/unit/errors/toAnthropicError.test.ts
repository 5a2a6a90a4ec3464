import { describe, expect, it } from 'vitest';
import { CapacityError } from '../../../src/errors/CapacityError.js';
import { InvalidApiKeyError } from '../../../src/errors/InvalidApiKeyError.js';
import { KeyLimitError } from '../../../src/errors/KeyLimitError.js';
import { RequestError } from '../../../src/errors/RequestError.js';
import { toAnthropicError } from '../../../src/errors/toAnthropicError.js';
import { UpstreamError } from '../../../src/errors/UpstreamError.js';
import { UpstreamsExhaustedError } from '../../../src/errors/UpstreamsExhaustedError.js';

describe('toAnthropicError', () => {
  it.each([
    [
      'a bad body',
      new RequestError(400, 'max_tokens is required', 'invalid_request_error', 'max_tokens', 'missing_required_parameter'),
      400,
      'invalid_request_error',
    ],
    ['a bad key', new InvalidApiKeyError(), 401, 'authentication_error'],
    ['a foreign host', new RequestError(403, 'no', 'invalid_request_error', null, 'host_not_allowed'), 403, 'permission_error'],
    ['an unknown model', new RequestError(404, 'no such model', 'not_found_error', 'model', 'model_not_found'), 404, 'not_found_error'],
    ['a body too large', new RequestError(413, 'too large', 'invalid_request_error', null, 'body_too_large'), 413, 'request_too_large'],
    ['a key over its rpm', new KeyLimitError('alice', 'rpm', 10, 12), 429, 'rate_limit_error'],
    ['the run cap', new CapacityError(4, 4), 429, 'rate_limit_error'],
    ['load shedding', new RequestError(503, 'overloaded', 'server_error', null, 'overloaded'), 529, 'overloaded_error'],
    [
      'every upstream down',
      new UpstreamsExhaustedError(new UpstreamError('unreachable', 'refused the connection'), 2),
      529,
      'overloaded_error',
    ],
    ['an upstream timeout', new UpstreamError('timeout', 'sent nothing for 30 s'), 504, 'timeout_error'],
    ['a broken upstream', new UpstreamError('bad_status', 'answered 500', 500), 502, 'api_error'],
    ['anything else', new Error('boom'), 500, 'api_error'],
  ])('answers %s with %i %s', (_name, error, status, type) => {
    const answer = toAnthropicError(error);

    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ type: 'error', error: { type, message: expect.stringMatching(/^rxgate: .+ \([a-z_]+\)$/) } });
  });

  it('keeps the headers: Retry-After for a key over its rpm', () => {
    expect(toAnthropicError(new KeyLimitError('alice', 'rpm', 10, 12)).headers).toEqual({ 'Retry-After': '12' });
  });

  it("keeps rxgate's code at the end of the message", () => {
    const { body } = toAnthropicError(
      new RequestError(400, 'messages must be an array', 'invalid_request_error', 'messages', 'invalid_value'),
    );

    expect(body.error.message).toBe('rxgate: messages must be an array (invalid_value)');
  });
});
