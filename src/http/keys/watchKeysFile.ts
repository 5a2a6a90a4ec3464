import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
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
 * changes. The directory is watched, not the file: editors and `rxgate keys` replace the file by
 * renaming, which a watch on the old file would not see. `extra` (the `RXGATE_API_KEY` entry)
 * joins every reading.
 */
export function watchKeysFile(path: string, logger: Logger, extra: KnownKeys = new Map()): WatchedKeys {
  const read = () => new Map([...indexKeys(readKeysFile(path)), ...extra]);
  let keys = read();
  const reload = () => {
    try {
      keys = read();
      logger.info({ keys: keys.size }, 'keys file reloaded');
    } catch (error) {
      logger.error({ err: error }, 'keys file not reloaded; the keys read before stay in force');
    }
  };
  const name = basename(path);
  let watcher: FSWatcher | undefined = watch(dirname(path), { persistent: false }, (_event, changed) => {
    if (changed === null || changed === name) reload();
  });
  watcher.on('error', (error) => logger.error({ err: error }, 'keys file no longer watched; send SIGHUP to reload it'));
  return {
    current: () => keys,
    reload,
    close: () => {
      watcher?.close();
      watcher = undefined;
    },
  };
}
