import type { z } from 'zod';

/**
 * How deep a client's JSON Schema may nest (objects and arrays, the schema itself is level 1):
 * far past any real schema, far below the depth at which `JSON.stringify` of the upstream body
 * overflows the stack (a few thousand levels).
 */
export const MAX_SCHEMA_DEPTH = 64;

/** How large a client's JSON Schema may be, in characters of JSON. */
export const MAX_SCHEMA_CHARS = 256 * 1024;

/** How `schema` breaks the bounds, or `undefined`. The walk keeps its own stack, so no depth can overflow it. */
function schemaExcess(schema: unknown): string | undefined {
  if (schema === undefined || schema === null) return undefined;
  const pending: [value: unknown, depth: number][] = [[schema, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, depth] = next;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_SCHEMA_DEPTH) return `nests deeper than ${MAX_SCHEMA_DEPTH} levels`;
    for (const child of Object.values(value)) pending.push([child, depth + 1]);
  }
  // Only now is stringifying safe.
  const chars = JSON.stringify(schema).length;
  return chars > MAX_SCHEMA_CHARS ? `is ${chars} characters of JSON, more than ${MAX_SCHEMA_CHARS}` : undefined;
}

/**
 * A zod refinement of an object that carries a client's JSON Schema at `path` (a tool's
 * `parameters`, a structured output's `schema`): a schema that nests deeper than
 * `MAX_SCHEMA_DEPTH` or is larger than `MAX_SCHEMA_CHARS` is refused there, with a message that
 * names its owner, before anything walks it again.
 *
 * @example
 * clientTool.superRefine(boundSchema(['function', 'parameters'], (tool) => tool.function.parameters, (tool) => `the parameters schema of tool '${tool.function.name}'`));
 * // 400: invalid 'tools[0].function.parameters': the parameters schema of tool 'f' nests deeper than 64 levels
 */
export function boundSchema<T>(
  path: readonly string[],
  schemaOf: (owner: T) => unknown,
  describe: (owner: T) => string,
): (owner: T, context: z.RefinementCtx<T>) => void {
  return (owner, context) => {
    const excess = schemaExcess(schemaOf(owner));
    if (excess) context.addIssue({ code: 'custom', path: [...path], message: `${describe(owner)} ${excess}` });
  };
}
