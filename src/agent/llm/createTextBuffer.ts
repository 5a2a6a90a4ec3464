/** Text appended piece by piece and read once at the end. */
export interface TextBuffer {
  append(piece: string): void;
  text(): string;
}

/** Pieces joined per batch: the array a batch waits in stays small, and each join copies only the batch. */
const BATCH = 256;

/** Methods on a class, not two closures: every open stream holds one. */
class BatchedText implements TextBuffer {
  readonly #joined: string[] = [];
  #batch: string[] = [];

  append(piece: string): void {
    this.#batch.push(piece);
    if (this.#batch.length < BATCH) return;
    this.#joined.push(this.#batch.join(''));
    this.#batch = [];
  }

  text(): string {
    return this.#joined.join('') + this.#batch.join('');
  }
}

/**
 * Collects text that arrives in many small pieces (a model's deltas) at about a byte per
 * character. `text += piece` would keep a rope node per piece instead, several times the text.
 */
export function createTextBuffer(): TextBuffer {
  return new BatchedText();
}
