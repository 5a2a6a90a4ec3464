import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const TSCONFIG = fileURLToPath(new URL('./tsconfig.gateway.json', import.meta.url));
/** Where `tsconfig.gateway.json` puts the compiled gateway (under node_modules, so no linter or formatter reads it). */
export const COMPILED_GATEWAY = fileURLToPath(new URL('../node_modules/.cache/rxgate-bench/bench/gateway.js', import.meta.url));

let built: Promise<void> | undefined;

/**
 * Compiles the gateway process and the product under it with `tsc`, as `npm run build` ships it,
 * so that the bench measures JavaScript as shipped, not code transpiled on the fly by tsx.
 * Once per bench process; incremental, so an unchanged tree takes a few seconds.
 */
export function buildGateway(): Promise<void> {
  built ??= promisify(execFile)(process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', TSCONFIG]).then(
    () => undefined,
  );
  return built;
}
