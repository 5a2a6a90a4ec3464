import { realpathSync, watch, type FSWatcher } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '../../logger.js';
import { readKeysFile } from './keysFile.js';
import { indexKeys, type KnownKeys } from './resolveKey.js';

/** The keys of `RXGATE_KEYS_FILE` as they are now. */
export interface WatchedKeys {
  /** The keys read last; what every request is checked against. */
  current(): KnownKeys;
  /** Reads the file again (SIGHUP does); a file that does not read or parse keeps the keys there were, and is logged. */
  reload(): void;
  close(): void;
}

/**
 * Reads the keys file now (a bad one is a `ConfigError`: nothing starts) and again whenever it
 * may have changed. Folders are watched, not the file: editors and `rxgate keys` replace the file
 * by renaming, which a watch on the old file would not see. Two folders: the path's own, where a
 * Kubernetes secret's `..data` link is swapped (an event named `..data`, not the file's name, so
 * any event there rereads), and the folder the path resolves to, re-resolved after each change,
 * where a link's target is replaced. `extra` (the `RXGATE_API_KEY` entry) joins every reading.
 */
export function watchKeysFile(path: string, logger: Logger, extra: KnownKeys = new Map()): WatchedKeys {
  const read = () => new Map([...indexKeys(readKeysFile(path)), ...extra]);
  let keys = read();
  let target: FSWatcher | undefined;
  const reload = () => {
    try {
      keys = read();
      logger.info({ keys: keys.size }, 'keys file reloaded');
    } catch (error) {
      logger.error({ err: error }, 'keys file not reloaded; the keys read before stay in force');
    }
    watchTarget();
  };
  const watchFolder = (folder: string) => {
    const watcher = watch(folder, { persistent: false }, reload);
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
    reload,
    close: () => {
      own?.close();
      target?.close();
      own = target = undefined;
    },
  };
}
