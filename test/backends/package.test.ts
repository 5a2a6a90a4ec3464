import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// `npm install <git url>` runs `prepare` (dist/ is not in git), then packs what `files` lists.

interface PackageJson {
  readonly main: string;
  readonly types: string;
  readonly bin: Record<string, string>;
  readonly scripts: Record<string, string>;
}

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as PackageJson;

describe('the package', () => {
  it('builds dist/ when installed from git', () => {
    expect(pkg.scripts.prepare).toBe('npm run build');
  });

  it("packs dist/ (what main, types and bin point at), the console's page, the README and nothing from the repository besides", () => {
    // --ignore-scripts: dist/ was built by the global setup; prepare would rewrite it under other tests.
    const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8' })) as [
      { files: { path: string }[] },
    ];
    const paths = pack.files.map((file) => file.path);

    expect(paths).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/cli.js', 'README.md', 'package.json']));
    expect(paths).toEqual(
      expect.arrayContaining([pkg.main, pkg.types, ...Object.values(pkg.bin)].map((path) => path.replace(/^\.\//, ''))),
    );
    expect(paths).toEqual(expect.arrayContaining(['console/index.html', 'console/main.js']));
    expect(paths.filter((path) => !/^(dist|console)\//.test(path) && !['README.md', 'package.json', 'LICENSE'].includes(path))).toEqual([]);
  });
});
