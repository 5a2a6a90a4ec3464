import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { flagOf, SETTINGS } from '../src/config.js';

describe('the README configuration table', () => {
  it('has exactly one row per setting, with its flag and default', () => {
    const rows = readFileSync('README.md', 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('| `RXGATE_'))
      .map((line) => line.split(' | ').map((cell) => cell.replace(/^\| /, '')));

    expect(rows.map(([env]) => env)).toEqual(Object.values(SETTINGS).map((setting) => `\`${setting.env}\``));
    for (const [env, flag, defaultValue] of rows) {
      const setting = Object.values(SETTINGS).find((candidate) => `\`${candidate.env}\`` === env)!;
      expect(flag).toBe(`\`${flagOf(setting.env)}\``);
      const expected = setting.default === undefined ? '(unset)' : setting.default === '' ? '(empty)' : `\`${setting.default}\``;
      expect(defaultValue, env).toBe(expected);
    }
  });
});

describe('the README quick start', () => {
  it('is the two commands', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
  });
});
