/** Text appended piece by piece and read once at the end. */
export interface TextBuffer {
  append(piece: string): void;
  text(): string;
}

/** Pieces joined per batch: the array a batch waits in stays small, and each join copies only the batch. */
const BATCH = 256;

/**
 * Collects text that arrives in many small pieces (a model's deltas) at about a byte per
 * character. `text += piece` would keep a rope node per piece instead, several times the text.
 */
export function createTextBuffer(): TextBuffer {
  const joined: string[] = [];
  let batch: string[] = [];
  return {
    append(piece) {
      batch.push(piece);
      if (batch.length < BATCH) return;
      joined.push(batch.join(''));
      batch = [];
    },
    text: () => joined.join('') + batch.join(''),
  };
}
