import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { ConfigSource } from '../../../config.js';
import { ConfigError } from '../../../errors/ConfigError.js';
import type { McpServerConfig } from './mcpServerConfig.js';

const DEFAULT_TIMEOUT_MS = 60_000;

const common = {
  timeoutMs: z.number().int().positive().optional(),
  tools: z.array(z.string().min(1)).optional(),
  requireApproval: z.union([z.boolean(), z.array(z.string().min(1))], { error: 'must be true, false or a list of tool names' }).optional(),
  enabled: z.boolean().optional(),
  disabled: z.boolean().optional(),
};
const stringMap = z.record(z.string(), z.string());
// Unknown keys are ignored: files written for other hosts carry their own settings.
const stdioEntry = z.looseObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: stringMap.optional(),
  cwd: z.string().min(1).optional(),
  ...common,
});
const httpEntry = z.looseObject({
  type: z.enum(['http', 'streamable-http', 'streamableHttp']).optional(),
  url: z.string().min(1),
  headers: stringMap.optional(),
  ...common,
});
const file = z.object({ mcpServers: z.record(z.string().min(1, 'a server needs a name'), z.unknown()) });

function pathOf(path: readonly PropertyKey[]): string {
  return path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('');
}

/** `${VAR}` and `${VAR:-default}` from the environment, as other hosts expand them; a missing variable is an error. */
function expand(value: string, env: ConfigSource, where: string, problems: string[]): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_match, name: string, fallback: string | undefined) => {
    const found = env[name];
    if (found !== undefined && found !== '') return found;
    if (fallback !== undefined) return fallback;
    problems.push(`${where}: the environment variable ${name} is not set`);
    return '';
  });
}

function expandMap(map: Record<string, string> | undefined, env: ConfigSource, where: string, problems: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(map ?? {}).map(([key, value]) => [key, expand(value, env, `${where}.${key}`, problems)]));
}

function toServer(name: string, raw: unknown, env: ConfigSource, problems: string[]): McpServerConfig | undefined {
  const where = `mcpServers.${name}`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push(`${where}: must be an object with "command" (a stdio server) or "url" (a Streamable HTTP server)`);
    return undefined;
  }
  const entry = raw as Record<string, unknown>;
  if (entry.type === 'sse') {
    problems.push(`${where}.type: the old HTTP+SSE transport is not supported; use the server's Streamable HTTP endpoint ("url")`);
    return undefined;
  }
  if ('command' in entry === 'url' in entry) {
    problems.push(`${where}: needs exactly one of "command" (a stdio server) or "url" (a Streamable HTTP server)`);
    return undefined;
  }
  const report = (error: z.ZodError) => {
    for (const issue of error.issues) problems.push(`${where}${pathOf(issue.path)}: ${issue.message}`);
    return undefined;
  };
  const shared = (value: z.output<typeof stdioEntry> | z.output<typeof httpEntry>) => ({
    name,
    timeoutMs: value.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ...(value.tools ? { tools: value.tools } : {}),
    requireApproval: value.requireApproval ?? false,
    enabled: value.enabled ?? !(value.disabled ?? false),
  });
  if ('command' in entry) {
    const parsed = stdioEntry.safeParse(entry);
    if (!parsed.success) return report(parsed.error);
    const { command, args = [], env: serverEnv, cwd } = parsed.data;
    return {
      ...shared(parsed.data),
      transport: 'stdio',
      command: expand(command, env, `${where}.command`, problems),
      args: args.map((arg, index) => expand(arg, env, `${where}.args[${index}]`, problems)),
      env: expandMap(serverEnv, env, `${where}.env`, problems),
      ...(cwd ? { cwd: expand(cwd, env, `${where}.cwd`, problems) } : {}),
    };
  }
  const parsed = httpEntry.safeParse(entry);
  if (!parsed.success) return report(parsed.error);
  const known = problems.length;
  const url = expand(parsed.data.url, env, `${where}.url`, problems);
  // Checked after expansion, so that the whole URL may come from a variable.
  if (problems.length === known && (!/^https?:\/\//i.test(url) || !URL.canParse(url)))
    problems.push(`${where}.url: must be an http:// or https:// URL`);
  return { ...shared(parsed.data), transport: 'http', url, headers: expandMap(parsed.data.headers, env, `${where}.headers`, problems) };
}

/**
 * The MCP servers of a config file in the format other hosts use:
 * `{"mcpServers": {"<name>": {"command", "args", "env", "cwd"} | {"url", "headers"}}}`, each
 * optionally with `timeoutMs`, `tools` (an allow-list), `requireApproval` and `enabled`. `${VAR}` in a value is
 * taken from `env`. Every problem is reported at once, each naming the file, the server and the
 * field; a value itself never appears in a message, so a secret cannot leak through one.
 */
export function loadMcpConfig(path: string, env: ConfigSource = process.env): McpServerConfig[] {
  const fail = (problems: readonly string[]) =>
    new ConfigError(`RXGATE_MCP_CONFIG=${path}:${problems.length === 1 ? ` ${problems[0]}` : `\n  ${problems.join('\n  ')}`}`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const reason =
      error instanceof SyntaxError
        ? `not valid JSON (${error.message})`
        : `cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
    throw fail([reason]);
  }
  const top = file.safeParse(json);
  if (!top.success) throw fail(top.error.issues.map((issue) => `${pathOf(issue.path).slice(1) || '(file)'}: ${issue.message}`));
  const problems: string[] = [];
  const servers = Object.entries(top.data.mcpServers).map(([name, raw]) => toServer(name, raw, env, problems));
  if (problems.length > 0) throw fail(problems);
  return servers.filter((server) => server !== undefined);
}
