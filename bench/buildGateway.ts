import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const TSCONFIG = fileURLToPath(new URL('./tsconfig.gateway.json', import.meta.url));
/** Where `tsconfig.gateway.json` puts the compiled bench files (under node_modules, so no linter or formatter reads them). */
const COMPILED_BENCH = new URL('../node_modules/.cache/rxgate-bench/bench/', import.meta.url);
export const COMPILED_GATEWAY = fileURLToPath(new URL('gateway.js', COMPILED_BENCH));
/** `phaseProbe.ts` compiled beside it. */
export const COMPILED_PHASE_PROBE = fileURLToPath(new URL('phaseProbe.js', COMPILED_BENCH));

let built: Promise<void> | undefined;

/**
 * Compiles the gateway process and the product under it with `tsc`, as `npm run build` ships it,
 * so that the bench measures JavaScript as shipped, not code transpiled on the fly by tsx.
 * Once per bench process; incremental, so an unchanged tree takes a few seconds.
 */
export function buildGateway(): Promise<void> {
  built ??= run(process.execPath, [TSC, '-p', TSCONFIG]).then(() => undefined);
  return built;
}

/**
 * Compiles the gateway process as it was committed at git `ref` (a commit, a tag, a branch), with
 * this checkout's packages, beside the working tree's build; returns its entry point, for
 * `launchGateway`'s `gateway` option. For measuring a change side by side with the build before it.
 */
export async function buildGatewayAt(ref: string): Promise<string> {
  const { stdout } = await run('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: ROOT });
  const commit = stdout.trim();
  // Under node_modules, as the working tree's build: the compiled files find the packages from there.
  const outDir = join(ROOT, 'node_modules/.cache/rxgate-at', commit);
  const tree = await mkdtemp(join(tmpdir(), 'rxgate-at-'));
  try {
    const archive = join(tree, 'tree.tar');
    await run('git', ['archive', '--output', archive, commit], { cwd: ROOT });
    await run('tar', ['-xf', archive, '-C', tree]);
    await symlink(join(ROOT, 'node_modules'), join(tree, 'node_modules'));
    // Its own build info: the tree's tsconfig would share the working tree's (through the link).
    await run(process.execPath, [
      TSC,
      '-p',
      join(tree, 'bench/tsconfig.gateway.json'),
      '--outDir',
      outDir,
      '--tsBuildInfoFile',
      join(outDir, 'tsbuildinfo'),
    ]);
  } finally {
    await rm(tree, { recursive: true, force: true });
  }
  return join(outDir, 'bench/gateway.js');
}
