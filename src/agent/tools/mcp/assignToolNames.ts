const MAX_LENGTH = 64;

/** One MCP tool that needs a name the upstream accepts. */
export interface NamedToolEntry {
  readonly server: string;
  readonly tool: string;
}

/** A name that was not the plain `<server>__<tool>`, and why. */
export interface ToolRename {
  readonly server: string;
  readonly tool: string;
  readonly name: string;
  readonly reason: 'sanitised' | 'collision';
}

/** `<server>__<tool>` with every character outside `[a-zA-Z0-9_-]` replaced by `_`, cut to 64 characters. */
export function sanitizeToolName(server: string, tool: string): string {
  return `${server}__${tool}`.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, MAX_LENGTH) || '_';
}

function withSuffix(base: string, n: number): string {
  const suffix = `_${n}`;
  return `${base.slice(0, MAX_LENGTH - suffix.length)}${suffix}`;
}

/**
 * Gives every entry a name matching `^[a-zA-Z0-9_-]{1,64}$` that no other entry and no
 * `reserved` name (the built-in tools) has. Deterministic: entries are taken in order of server,
 * then tool name, and the first to want a name gets it; later ones get `_2`, `_3`, ... Returns
 * the names in the order of `entries`, and the renames worth a log line.
 */
export function assignToolNames(
  entries: readonly NamedToolEntry[],
  reserved: Iterable<string> = [],
): { names: string[]; renames: ToolRename[] } {
  const taken = new Set(reserved);
  const names: string[] = new Array<string>(entries.length);
  const renames: ToolRename[] = [];
  const order = entries.map((entry, index) => ({ entry, index }));
  order.sort((a, b) => compare(a.entry.server, b.entry.server) || compare(a.entry.tool, b.entry.tool));
  for (const { entry, index } of order) {
    const base = sanitizeToolName(entry.server, entry.tool);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = withSuffix(base, n);
    taken.add(name);
    names[index] = name;
    if (name !== base) renames.push({ ...entry, name, reason: 'collision' });
    else if (name !== `${entry.server}__${entry.tool}`) renames.push({ ...entry, name, reason: 'sanitised' });
  }
  return { names, renames };
}

// Code-unit order, not localeCompare: the same on every machine.
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
