import type { Price } from './price.js';

const globToRegExp = (glob: string): RegExp =>
  new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );

/**
 * The prices of `RXGATE_PRICES_FILE` by upstream model name: an exact name wins over a glob (`*`
 * any run of characters, `?` one), a longer glob over a shorter one.
 */
export class PriceBook {
  static readonly EMPTY = new PriceBook({});

  readonly #exact = new Map<string, Price>();
  readonly #globs: { readonly pattern: RegExp; readonly price: Price }[];

  constructor(models: Readonly<Record<string, Price>>) {
    const globs: { glob: string; price: Price }[] = [];
    for (const [name, price] of Object.entries(models)) {
      if (/[*?]/.test(name)) globs.push({ glob: name, price });
      else this.#exact.set(name, price);
    }
    this.#globs = globs.sort((a, b) => b.glob.length - a.glob.length).map(({ glob, price }) => ({ pattern: globToRegExp(glob), price }));
  }

  /** How many names and globs it prices. */
  get size(): number {
    return this.#exact.size + this.#globs.length;
  }

  /** The price of `model`, if the file has one. */
  priceOf(model: string): Price | undefined {
    return this.#exact.get(model) ?? this.#globs.find(({ pattern }) => pattern.test(model))?.price;
  }
}
