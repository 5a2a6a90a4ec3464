import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../errors/ConfigError.js';
import { parseConfigJson } from '../errors/parseConfigJson.js';
import { priceSchema } from './price.js';
import { PriceBook } from './PriceBook.js';

/** A prices file (`RXGATE_PRICES_FILE`), strictly: an unknown key anywhere is an error. */
const pricesFileSchema = z.strictObject({ models: z.record(z.string().min(1), priceSchema) });

export function readPricesBytes(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new ConfigError(
      `RXGATE_PRICES_FILE ${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
}

/** Checks a prices file: a problem names the file, the model and the field, and is a `ConfigError`. */
export function parsePrices(bytes: Buffer, path: string): PriceBook {
  return new PriceBook(parseConfigJson('RXGATE_PRICES_FILE', path, bytes.toString('utf8'), pricesFileSchema).models);
}
