import { createHash } from 'node:crypto';
import { realpathSync, watch, type FSWatcher } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '../../logger.js';
import { parseKeysBytes, readKeysBytes } from './keysFile.js';
import { indexKeys, type KnownKeys } from './resolveKey.js';

/** The keys of `RXGATE_KEYS_FILE` as they are now. */
export interface WatchedKeys {
  /** The keys read last; what every request is checked against. */
  current(): KnownKeys;
  /** Reads the file again (SIGHUP does), even unchanged; a file that does not read or parse keeps the keys there were, and is logged. */
  reload(): void;
  close(): void;
}

/**
 * Reads the keys file now (a bad one is a `ConfigError`: nothing starts) and again whenever it
 * may have changed. Folders are watched, not the file: editors and `rxgate keys` replace the file
 * by renaming, which a watch on the old file would not see. Two folders: the path's own, where a
 * Kubernetes secret's `..data` link is swapped (an event named `..data`, not the file's name, so
 * any event there rereads), and the folder the path resolves to, re-resolved after each change,
 * where a link's target is replaced. A reread whose bytes have the SHA-256 of the last reading is
 * not a reload (no new keys, no log line). `extra` (the `RXGATE_API_KEY` entry) joins every reading.
 */
export function watchKeysFile(path: string, logger: Logger, extra: KnownKeys = new Map()): WatchedKeys {
  const digestOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const first = readKeysBytes(path);
  let keys: KnownKeys = new Map([...indexKeys(parseKeysBytes(first, path)), ...extra]);
  // What `keys` was read from: one ..data swap is several events, and only a change is a reload.
  let digest = digestOf(first);
  let target: FSWatcher | undefined;
  const load = (always: boolean) => {
    try {
      const bytes = readKeysBytes(path);
      const next = digestOf(bytes);
      if (always || next !== digest) {
        keys = new Map([...indexKeys(parseKeysBytes(bytes, path)), ...extra]);
        digest = next;
        logger.info({ keys: keys.size }, 'keys file reloaded');
      }
    } catch (error) {
      logger.error({ err: error }, 'keys file not reloaded; the keys read before stay in force');
    }
    watchTarget();
  };
  const watchFolder = (folder: string) => {
    const watcher = watch(folder, { persistent: false }, () => load(false));
    watcher.on('error', (error) =>
      logger.error({ err: error, folder }, 'keys folder no longer watched; send SIGHUP to reload the keys file'),
    );
    return watcher;
  };
  let targetFolder: string | undefined;
  const watchTarget = () => {
    let folder: string;
    try {
      folder = dirname(realpathSync(path));
    } catch {
      return; // Mid-swap: the next event resolves it again.
    }
    if (folder === dirname(path) || folder === targetFolder || own === undefined) return;
    target?.close();
    targetFolder = folder;
    target = watchFolder(folder);
  };
  let own: FSWatcher | undefined = watchFolder(dirname(path));
  watchTarget();
  return {
    current: () => keys,
    reload: () => load(true),
    close: () => {
      own?.close();
      target?.close();
      own = target = undefined;
    },
  };
}
