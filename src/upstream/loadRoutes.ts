import { readFileSync } from 'node:fs';
import { ConfigError } from '../errors/ConfigError.js';
import { parseConfigJson } from '../errors/parseConfigJson.js';
import type { Route, Routes, Upstream, UpstreamTimeouts } from './routes.js';
import { routesFileSchema } from './routesFileSchema.js';

type Env = Readonly<Record<string, string | undefined>>;

/** A fallback chain that comes back to a route it started from would fail over forever. */
function findCycle(models: ReadonlyMap<string, Route>): string[] | undefined {
  const done = new Set<string>();
  const visit = (name: string, trail: string[]): string[] | undefined => {
    if (trail.includes(name)) return [...trail.slice(trail.indexOf(name)), name];
    if (done.has(name)) return undefined;
    const route = models.get(name);
    for (const next of [...(route?.fallbacks ?? []), ...(route?.contextWindowFallbacks ?? [])]) {
      const cycle = visit(next, [...trail, name]);
      if (cycle) return cycle;
    }
    done.add(name);
    return undefined;
  };
  for (const name of models.keys()) {
    const cycle = visit(name, []);
    if (cycle) return cycle;
  }
  return undefined;
}

/**
 * Reads and checks a routes file (`RXGATE_ROUTES_FILE`): its shape (strictly, an unknown key is an
 * error), that every target and fallback names something that exists, that no fallbacks run in a
 * circle, and that every `env:NAME` secret is set. Every problem names the file, the entry and the
 * field, and nothing starts. Timeouts an upstream does not set are `defaults`.
 */
export function loadRoutes(path: string, env: Env, defaults: UpstreamTimeouts): Routes {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `RXGATE_ROUTES_FILE ${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  const file = parseConfigJson('RXGATE_ROUTES_FILE', path, text, routesFileSchema);
  const problems: string[] = [];
  const upstreams = new Map<string, Upstream>();
  file.upstreams.forEach((entry, index) => {
    const at = `upstreams[${index}] ("${entry.id}")`;
    if (upstreams.has(entry.id)) problems.push(`${at}.id: another upstream already has this id`);
    const variable = entry.apiKey?.slice('env:'.length);
    const apiKey = variable === undefined ? undefined : env[variable];
    if (variable !== undefined && !apiKey?.trim()) problems.push(`${at}.apiKey: the variable ${variable} is not set`);
    upstreams.set(entry.id, { ...entry, apiKey, timeouts: { ...defaults, ...entry.timeouts } });
  });
  const models = new Map<string, Route>();
  file.models.forEach((entry, index) => {
    const at = `models[${index}] ("${entry.name}")`;
    if (models.has(entry.name)) problems.push(`${at}.name: another model already has this name`);
    entry.targets.forEach((target, t) => {
      if (!upstreams.has(target.upstream)) problems.push(`${at}.targets[${t}].upstream: no upstream has the id "${target.upstream}"`);
    });
    models.set(entry.name, entry);
  });
  file.models.forEach((entry, index) => {
    for (const field of ['fallbacks', 'contextWindowFallbacks'] as const) {
      entry[field].forEach((name, f) => {
        if (!models.has(name)) problems.push(`models[${index}] ("${entry.name}").${field}[${f}]: no model has the name "${name}"`);
      });
    }
  });
  const cycle = problems.length === 0 ? findCycle(models) : undefined;
  if (cycle) problems.push(`models ("${cycle[0]}").fallbacks: the fallbacks run in a circle: ${cycle.join(' -> ')}`);
  if (problems.length > 0) throw new ConfigError(`RXGATE_ROUTES_FILE ${path}:\n  ${problems.join('\n  ')}`);
  return { upstreams, models, retry: file.retry, budget: file.budget, breaker: file.breaker };
}
