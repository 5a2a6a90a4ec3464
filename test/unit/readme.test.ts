import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { flagOf, SETTINGS } from '../../src/config.js';
import { createMetrics } from '../../src/metrics/createMetrics.js';

const README = readFileSync('README.md', 'utf8');

/** The cells of each row of the README table whose header line is `header`. */
function table(header: string): string[][] {
  const lines = README.split('\n');
  const start = lines.indexOf(header);
  expect(start, `the README has a table headed ${header}`).toBeGreaterThan(0);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('| ')) break;
    rows.push(line.slice('| '.length, -' |'.length).split(' | '));
  }
  return rows;
}

describe('the README configuration table', () => {
  const rows = table('| Variable | Flag | Default | Meaning |');

  it('has exactly one row per setting, in the order of SETTINGS', () => {
    expect(rows.map(([env]) => env)).toEqual(Object.values(SETTINGS).map((setting) => `\`${setting.env}\``));
  });

  it.each(Object.values(SETTINGS).map((setting) => [setting.env, setting] as const))(
    '%s: its flag, its default and its doc',
    (env, setting) => {
      const row = rows.find(([cell]) => cell === `\`${env}\``);
      const expectedDefault = setting.default === undefined ? '(unset)' : setting.default === '' ? '(empty)' : `\`${setting.default}\``;
      expect(row).toEqual([`\`${env}\``, `\`${flagOf(env)}\``, expectedDefault, setting.doc]);
    },
  );
});

interface MetricRow {
  readonly name: string;
  readonly labels: readonly string[];
  readonly type: string;
}

describe('the README metrics table', () => {
  const documented: MetricRow[] = table('| Metric | Type | What |').flatMap(([names, type]) =>
    names!.split(', ').map((cell) => {
      const [, name, labels] = /^`([a-z_]+\*?)(?:\{([a-z_,]+)\})?`$/.exec(cell) ?? [];
      expect(name, `a metric name in ${cell}`).toBeDefined();
      return { name: name!, labels: labels?.split(',') ?? [], type: type! };
    }),
  );
  const registered: MetricRow[] = (
    createMetrics().registry.getMetricsAsArray() as unknown as { name: string; type: string; labelNames?: readonly string[] }[]
  ).map(({ name, type, labelNames }) => ({ name, labels: [...(labelNames ?? [])], type }));
  const patterns = documented.filter((row) => row.name.endsWith('*'));
  const matchesPattern = (name: string) => patterns.some((pattern) => name.startsWith(pattern.name.slice(0, -1)));
  const byName = (a: MetricRow, b: MetricRow) => a.name.localeCompare(b.name);

  it('names the Node process metrics as patterns that each match some', () => {
    expect(patterns).toEqual([
      { name: 'rxgate_process_*', labels: [], type: 'various' },
      { name: 'rxgate_nodejs_*', labels: [], type: 'various' },
    ]);
    for (const pattern of patterns)
      expect(
        registered.some((metric) => metric.name.startsWith(pattern.name.slice(0, -1))),
        pattern.name,
      ).toBe(true);
  });

  it('lists exactly the metrics createMetrics() registers, with their type and labels', () => {
    const own = registered.filter((metric) => !matchesPattern(metric.name));
    expect(documented.filter((row) => !row.name.endsWith('*')).sort(byName)).toEqual(own.sort(byName));
  });
});

describe('the README quick start', () => {
  it('is the two commands', () => {
    expect(README).toContain('npm ci && npm start');
    expect(README).toContain('npm ci && npm test');
  });
});
