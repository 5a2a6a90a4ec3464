import type { z } from 'zod';
import { RequestError } from '../errors/RequestError.js';
import { formatPath } from './chatCompletionRequest.js';

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((node, key) => (typeof node === 'object' && node !== null ? (node as Record<PropertyKey, unknown>)[key] : undefined), root);
}

/** The 400 for a zod failure, naming the offending path (`input[0].content`) as OpenAI's `param` does. */
export function invalidRequest(error: z.ZodError, body: unknown, prefix: readonly PropertyKey[] = []): RequestError {
  const [issue] = error.issues;
  const path = [...prefix, ...(issue?.path ?? [])];
  const param = formatPath(path) || null;
  const missing = valueAt(body, path) === undefined;
  return new RequestError(
    400,
    missing ? `missing required parameter: '${param}'` : `invalid '${param}': ${issue?.message}`,
    'invalid_request_error',
    param,
    missing ? 'missing_required_parameter' : 'invalid_value',
  );
}

/** The body must be a JSON object before any field can be checked. */
export function assertObjectBody(body: unknown): asserts body is Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new RequestError(400, 'the request body must be a JSON object', 'invalid_request_error', null, 'invalid_body');
  }
}
