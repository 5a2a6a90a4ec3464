import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { flagOf, SETTINGS } from '../src/config.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('the README', () => {
  it.each(Object.values(SETTINGS).map((setting) => [setting.env, setting] as const))('documents %s with its flag and default', (env, setting) => {
    const row = readme.split('\n').find((line) => line.startsWith(`| \`${env}\` |`));
    expect(row, `README configuration table has no row for ${env}`).toBeDefined();
    expect(row).toContain(`\`${flagOf(env)}\``);
    const shownDefault = setting.default === undefined ? '(unset)' : setting.default === '' ? '(empty)' : `\`${setting.default}\``;
    expect(row).toContain(shownDefault);
  });

  it('keeps the quick start to the two commands', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
  });
});
