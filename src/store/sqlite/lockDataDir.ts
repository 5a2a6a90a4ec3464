import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = 'rxgate.lock';

/** Whether process `pid` is alive (a process we may not signal is alive too). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `dataDir/rxgate.lock` for this process, so that two processes never share one data
 * directory (the second's crash recovery would fail the first's live runs). A lock left by a dead
 * process, or by an earlier process with this one's pid (a container restarted), is taken over.
 * Throws naming the directory and the holder's pid; returns the release.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  // Written aside, then linked into place: the lock never exists without its pid in it.
  const candidate = `${path}.${process.pid}`;
  writeFileSync(candidate, String(process.pid));
  for (let attempt = 0; ; attempt++) {
    try {
      linkSync(candidate, path);
      unlinkSync(candidate);
      return () => {
        try {
          if (readFileSync(path, 'utf8') === String(process.pid)) unlinkSync(path);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) {
        unlinkSync(candidate);
        throw error;
      }
    }
    const holder = Number.parseInt(readFileSync(path, 'utf8'), 10);
    if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
      unlinkSync(candidate);
      throw new Error(
        `the data directory ${dataDir} is in use by another rxgate process (pid ${holder}, see ${path}); give each process its own RXGATE_DATA_DIR`,
      );
    }
    unlinkSync(path);
  }
}
