import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;
type Check = (input: unknown) => { valid: boolean; errorMessage?: string };

/** A tool schema the upstream will accept and the arguments' check built from it, or why there is none. */
export type PreparedToolSchema =
  | { readonly ok: true; readonly inputSchema: JsonSchema; readonly parameters: z.ZodType }
  | { readonly ok: false; readonly problem: string };

// The SDK's own ajv (JSON Schema 2020-12, and draft-07 or 2019-09 where a schema declares it), the
// validator the SDK uses for tool output: no second JSON Schema engine in the gateway.
const validator = new AjvJsonSchemaValidator();
// Compiled once per distinct schema text: a tool list that is refreshed again and again must not
// grow ajv's cache, which is keyed by schema object.
const compiled = new Map<string, Check>();

function compile(schema: JsonSchema): Check {
  // A top-level $id would make ajv register the schema globally, and two servers may use the same one.
  const anonymous = { ...schema };
  delete anonymous.$id;
  const key = JSON.stringify(anonymous);
  let check = compiled.get(key);
  if (!check) {
    check = validator.getValidator(anonymous as Parameters<typeof validator.getValidator>[0]);
    compiled.set(key, check);
  }
  return check;
}

/** ajv's `data/a/0 must be string, data must have required property 'b'` as zod-style issues: `a.0: must be string`, `(arguments): must have ...`. */
function toIssues(errorMessage: string | undefined): { path: string[]; message: string }[] {
  if (!errorMessage) return [{ path: [], message: 'does not match the schema' }];
  return errorMessage.split(/, (?=data[/ ])/).map((part) => {
    const match = /^data((?:\/[^ ]*)?) (.*)$/s.exec(part);
    if (!match) return { path: [], message: part };
    return { path: match[1]!.split('/').filter((key) => key !== ''), message: match[2]! };
  });
}

/**
 * Checks an MCP tool's input schema and prepares it for the upstream: the JSON schema the model
 * sees (the server's, without the `$schema` dialect marker, and with `properties: {}` added to an
 * object schema without properties, which some upstreams reject), and a zod schema that validates
 * the model's arguments against the server's schema with ajv before the call. A schema that is
 * not an object schema or does not compile cannot be offered: upstreams reject the whole request
 * over one such tool, so the tool is left out instead.
 */
export function prepareToolSchema(schema: unknown): PreparedToolSchema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || (schema as JsonSchema).type !== 'object') {
    return { ok: false, problem: 'its input schema is not a JSON schema of type "object"' };
  }
  let check: Check;
  try {
    check = compile(schema as JsonSchema);
  } catch (error) {
    return { ok: false, problem: `its input schema is not valid JSON Schema (${(error as Error).message})` };
  }
  const inputSchema: JsonSchema = { ...(schema as JsonSchema) };
  delete inputSchema.$schema;
  if (inputSchema.properties === undefined) inputSchema.properties = {};
  const parameters = z.unknown().superRefine((value, context) => {
    const result = check(value);
    if (!result.valid) for (const issue of toIssues(result.errorMessage)) context.addIssue({ code: 'custom', ...issue });
  });
  return { ok: true, inputSchema, parameters };
}
