import type { Logger } from '../../logger.js';
import { watchConfigFile, type WatchedFile } from '../../watchConfigFile.js';
import { parseKeysBytes, readKeysBytes } from './keysFile.js';
import { indexKeys, type KnownKeys } from './resolveKey.js';

/** The keys of `RXGATE_KEYS_FILE` as they are now: `current()` is what every request is checked against. */
export type WatchedKeys = WatchedFile<KnownKeys>;

/**
 * Reads the keys file now (a bad one is a `ConfigError`: nothing starts) and again whenever it may
 * have changed (`watchConfigFile`). `extra` (the `RXGATE_API_KEY` entry) joins every reading.
 */
export function watchKeysFile(path: string, logger: Logger, extra: KnownKeys = new Map()): WatchedKeys {
  return watchConfigFile(path, logger, {
    what: 'keys file',
    read: readKeysBytes,
    parse: (bytes): KnownKeys => new Map([...indexKeys(parseKeysBytes(bytes, path)), ...extra]),
    describe: (keys) => ({ keys: keys.size }),
  });
}
