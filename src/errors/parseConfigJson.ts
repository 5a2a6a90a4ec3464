import type { z } from 'zod';
import { ConfigError } from './ConfigError.js';

/** `models[0].targets[1].upstream` -> `models[0] ("smart").targets[1].upstream`: the entry by its name as well. */
function describePath(file: unknown, path: readonly PropertyKey[]): string {
  let node = file as Record<PropertyKey, unknown> | undefined;
  let text = '';
  for (const key of path) {
    text += typeof key === 'number' ? `[${key}]` : `${text === '' ? '' : '.'}${String(key)}`;
    node = node?.[key] as Record<PropertyKey, unknown> | undefined;
    const label = typeof key === 'number' ? (node?.id ?? node?.name) : undefined;
    if (typeof label === 'string') text += ` ("${label}")`;
  }
  return text || '(the file)';
}

/**
 * A JSON file a setting names, checked against `schema`: not JSON, or each problem by its path (an
 * unknown key named), is a `ConfigError` that starts with the setting and the file.
 */
export function parseConfigJson<T extends z.ZodType>(setting: string, path: string, text: string, schema: T): z.output<T> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${setting} ${path}: not JSON (${(error as Error).message})`);
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const keys =
      issue.code === 'unrecognized_keys' ? `: unknown key ${issue.keys.map((key) => `"${key}"`).join(', ')}` : `: ${issue.message}`;
    return `${describePath(json, issue.path)}${keys}`;
  });
  throw new ConfigError(`${setting} ${path}:\n  ${problems.join('\n  ')}`);
}
