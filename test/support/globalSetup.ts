import { execFileSync } from 'node:child_process';

/** Builds `dist/` once, so that tests can start the real CLI as a separate process. */
export default function buildOnce(): void {
  execFileSync('npx', ['tsc', '-p', 'tsconfig.json'], { stdio: 'inherit' });
}
