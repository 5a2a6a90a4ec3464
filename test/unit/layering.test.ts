import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The folders of src/, top to bottom, as the README's Development section states them: a file
 * may import only from its own folder or from a folder of a lower rank. The folders of one rank
 * are siblings and import nothing from each other. Inside agent/, store/ and upstream/ each
 * sub-folder is ranked too.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['cli', 'index', 'testing'],
  ['createAgentFor', 'loadOperatorsModule'],
  ['http'],
  ['http/keys', 'http/express'],
  ['jobs', 'usage'],
  ['runs'],
  ['chat', 'responses', 'conversations', 'messages'],
  ['openai', 'detached'],
  ['serving'],
  ['pipeline'],
  ['store/configured', 'sse', 'operators'],
  ['store/redis', 'store/sqlite'],
  ['store'],
  ['agent/llm', 'agent/offline'],
  ['agent/tools/mcp'],
  ['agent/tools'],
  ['agent'],
  // The Messages wire reads its events with the chat wire's POST and SSE reader.
  ['upstream/anthropicMessages'],
  ['upstream/openaiChat'],
  ['upstream'],
  ['tracing', 'money'],
  ['health', 'metrics', 'config', 'watchConfigFile'],
  ['errors', 'logger', 'principal', 'rx', 'wire'],
  ['budget'],
];

/** The folders whose sub-folders are ranked on their own. */
const RANKED_INSIDE = new Set(['agent', 'store', 'upstream', 'http']);

const SRC = resolve(import.meta.dirname, '../../src');
const BENCH = resolve(import.meta.dirname, '../../bench');
const rank = new Map(LAYERS.flatMap((folders, index) => folders.map((folder) => [folder, index] as const)));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** `src/chat/done.ts` -> `chat`, `src/config.ts` -> `config`, `src/agent/tools/mcp/tool.ts` -> `agent/tools/mcp`. */
function folderOf(file: string): string {
  const parts = relative(SRC, file).replace(/\.ts$/, '').split('/');
  return RANKED_INSIDE.has(parts[0]!) && parts.length > 2 ? parts.slice(0, -1).join('/') : parts[0]!;
}

/** Every relative import of every file under `root`, type-only imports included. */
function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((match) =>
      resolve(dirname(file), match[1]!.replace(/\.js$/, '.ts')),
    );
    graph.set(file, targets);
  }
  return graph;
}

/** Every circle of imports in `graph`, as `a.ts -> b.ts -> a.ts` relative to `root`. */
function circlesOf(graph: ReadonlyMap<string, readonly string[]>, root: string): string[] {
  const circles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, path: string[]) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      circles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(root, f)).join(' -> '));
      return;
    }
    state.set(file, 'open');
    for (const target of graph.get(file) ?? []) visit(target, [...path, file]);
    state.set(file, 'done');
  };
  for (const file of graph.keys()) visit(file, []);
  return circles;
}

/** The imports from a folder to one of the same rank or a higher one, as `from -> to`. */
function importsAgainstTheRanks(graph: ReadonlyMap<string, readonly string[]>): string[] {
  return [...graph].flatMap(([file, targets]) =>
    targets
      .filter((target) => folderOf(target) !== folderOf(file) && rank.get(folderOf(target))! <= rank.get(folderOf(file))!)
      .map((target) => `${relative(SRC, file)} -> ${relative(SRC, target)}`),
  );
}

describe('the import graph of src/', () => {
  const graph = importGraph(SRC);

  it('knows every folder', () => {
    const unknown = [...new Set([...graph.keys()].map(folderOf))].filter((folder) => !rank.has(folder));
    expect(unknown).toEqual([]);
  });

  it('has no import that runs back up between folders, nor one between siblings', () => {
    expect(importsAgainstTheRanks(graph)).toEqual([]);
  });

  it('would see an import between siblings, and one back up a sub-folder', () => {
    const file = (path: string) => join(SRC, path);
    const made = new Map([
      [file('chat/a.ts'), [file('responses/b.ts')]],
      [file('agent/tools/c.ts'), [file('agent/llm/d.ts')]],
      [file('agent/llm/e.ts'), [file('agent/tools/f.ts'), file('upstream/g.ts')]],
    ]);
    expect(importsAgainstTheRanks(made)).toEqual(['chat/a.ts -> responses/b.ts', 'agent/tools/c.ts -> agent/llm/d.ts']);
  });

  it('has no circle between files', () => {
    expect(circlesOf(graph, SRC)).toEqual([]);
  });
});

describe('the import graph of bench/', () => {
  it('has no circle between files', () => {
    expect(circlesOf(importGraph(BENCH), BENCH)).toEqual([]);
  });
});
