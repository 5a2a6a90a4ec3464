import type { Logger } from '../logger.js';
import { watchConfigFile, type WatchedFile } from '../watchConfigFile.js';
import type { PriceBook } from './PriceBook.js';
import { parsePrices, readPricesBytes } from './pricesFile.js';

/** `RXGATE_PRICES_FILE` read now (a bad one is a `ConfigError`: nothing starts), and again when it changes and on SIGHUP. */
export function watchPricesFile(path: string, logger: Logger): WatchedFile<PriceBook> {
  return watchConfigFile(path, logger, {
    what: 'prices file',
    read: readPricesBytes,
    parse: (bytes) => parsePrices(bytes, path),
    describe: (book) => ({ models: book.size }),
  });
}
