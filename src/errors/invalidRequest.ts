import type { z } from 'zod';
import { RequestError } from './RequestError.js';
/** `['messages', 2, 'content']` -> `messages[2].content`, the form OpenAI's `param` uses. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), '');
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (node, key) => (typeof node === 'object' && node !== null ? (node as Record<PropertyKey, unknown>)[key] : undefined),
    root,
  );
}

type Issue = {
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly code?: string;
  /** The allowed values of an enum (zod's `invalid_value`), which a missing field's message lists too. */
  readonly values?: readonly unknown[];
  readonly errors?: readonly (readonly Issue[])[];
};

/** A union that failed in every option names the option that got furthest (`content[0].type`, not `content`). */
function mostSpecific(issue: Issue): Issue {
  if (issue.code !== 'invalid_union' || !issue.errors) return issue;
  const nested = issue.errors
    .map((issues) => issues[0])
    .filter((inner): inner is Issue => inner !== undefined && inner.path.length > 0)
    .sort((a, b) => b.path.length - a.path.length)[0];
  return nested ? ({ ...mostSpecific(nested), path: [...issue.path, ...mostSpecific(nested).path] } as Issue) : issue;
}

/** The 400 for a zod failure, naming the offending path (`input[0].content`) as OpenAI's `param` does. */
export function invalidRequest(error: z.ZodError, body: unknown, prefix: readonly PropertyKey[] = []): RequestError {
  const issue = error.issues[0] && mostSpecific(error.issues[0] as Issue);
  const path = [...prefix, ...(issue?.path ?? [])];
  const param = formatPath(path) || null;
  const missing = valueAt(body, path) === undefined;
  const allowed = issue?.values ? `; it must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}` : '';
  return new RequestError(
    400,
    missing ? `missing required parameter: '${param}'${allowed}` : `invalid '${param}': ${issue?.message}`,
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
