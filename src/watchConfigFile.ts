import { createHash } from 'node:crypto';
import { realpathSync, watch, type FSWatcher } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from './logger.js';

/** A file a setting names, as it reads now. */
export interface WatchedFile<T> {
  /** What the file said when it last read well. */
  current(): T;
  /** Reads the file again (SIGHUP does), even unchanged; a file that does not read or parse keeps what there was, and is logged. */
  reload(): void;
  close(): void;
}

export interface ConfigFileReader<T> {
  /** What the logs call it: `keys file`. */
  readonly what: string;
  /** Reads the bytes; a `ConfigError` for a file that is missing or unreadable. */
  readonly read: (path: string) => Buffer;
  /** Makes sense of the bytes; a `ConfigError` for a bad file. */
  readonly parse: (bytes: Buffer) => T;
  /** Fields of the reload's log line. */
  readonly describe?: (value: T) => Record<string, unknown>;
}

const digestOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Reads a configuration file now (a bad one throws: nothing starts) and again whenever it may have
 * changed. Folders are watched, not the file: editors and `rxgate keys` replace the file by
 * renaming, which a watch on the old file would not see. Two folders: the path's own, where a
 * Kubernetes secret's `..data` link is swapped (an event named `..data`, not the file's name, so
 * any event there rereads), and the folder the path resolves to, re-resolved after each change,
 * where a link's target is replaced. A reread whose bytes have the SHA-256 of the last reading is
 * not a reload (nothing new, no log line).
 */
export function watchConfigFile<T>(path: string, logger: Logger, reader: ConfigFileReader<T>): WatchedFile<T> {
  const { what, read, parse, describe = () => ({}) } = reader;
  const first = read(path);
  let value = parse(first);
  // What `value` was read from: one ..data swap is several events, and only a change is a reload.
  let digest = digestOf(first);
  let target: FSWatcher | undefined;
  const load = (always: boolean) => {
    try {
      const bytes = read(path);
      const next = digestOf(bytes);
      if (always || next !== digest) {
        value = parse(bytes);
        digest = next;
        logger.info(describe(value), `${what} reloaded`);
      }
    } catch (error) {
      logger.error({ err: error }, `${what} not reloaded; what it said before stays in force`);
    }
    watchTarget();
  };
  const watchFolder = (folder: string) => {
    const watcher = watch(folder, { persistent: false }, () => load(false));
    watcher.on('error', (error) => logger.error({ err: error, folder }, `${what}'s folder no longer watched; send SIGHUP to reload it`));
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
    current: () => value,
    reload: () => load(true),
    close: () => {
      own?.close();
      target?.close();
      own = target = undefined;
    },
  };
}
