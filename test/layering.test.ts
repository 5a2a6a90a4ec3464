import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The folders of src/, top to bottom, as the README's Development section states them: a file
 * may import only from its own folder or from a folder below its own.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['cli', 'index', 'testing'],
  ['createAgentFor', 'loadOperatorsModule'],
  ['http'],
  ['jobs'],
  ['runs'],
  ['conversations'],
  ['responses'],
  ['chat'],
  ['detached'],
  ['pipeline'],
  ['store', 'sse', 'operators'],
  ['agent'],
  ['tracing'],
  ['health', 'metrics', 'config'],
  ['errors', 'logger', 'principal', 'rx'],
];

const SRC = resolve(import.meta.dirname, '../src');
const BENCH = resolve(import.meta.dirname, '../bench');
const rank = new Map(LAYERS.flatMap((folders, index) => folders.map((folder) => [folder, index] as const)));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** `src/chat/done.ts` -> `chat`, `src/config.ts` -> `config`. */
const folderOf = (file: string): string => relative(SRC, file).split('/')[0]!.replace(/\.ts$/, '');

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

describe('the import graph of src/', () => {
  const graph = importGraph(SRC);

  it('knows every folder', () => {
    const unknown = [...new Set([...graph.keys()].map(folderOf))].filter((folder) => !rank.has(folder));
    expect(unknown).toEqual([]);
  });

  it('has no import that runs back up between folders', () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      targets
        .filter((target) => folderOf(target) !== folderOf(file) && rank.get(folderOf(target))! <= rank.get(folderOf(file))!)
        .map((target) => `${relative(SRC, file)} -> ${relative(SRC, target)}`),
    );
    expect(upward).toEqual([]);
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
