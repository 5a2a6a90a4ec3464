const LF = 0x0a;
const CR = 0x0d;

const BLANK_LINE = Buffer.from('\n\n');

/**
 * Measures the SSE frames of a byte stream: fed each chunk as it arrives, it returns the size in
 * bytes of the largest frame that chunk ended or extended, a frame being everything since the last
 * blank line (`\n\n`, `\r\r`, `\r\n\r\n` and their mixtures end one). An event is dispatched at a
 * blank line, so this bounds what an SSE parser may have to hold. LF and CR never occur inside a
 * UTF-8 sequence, so the bytes need no decoding.
 *
 * Given a `limit`, a chunk in which no frame can have passed it (the frame it continues and the
 * whole chunk together are not longer) and that holds no CR is not read line by line: the answer
 * is then that sum, at most `limit`, and only where the last frame starts is looked for. A chunk of
 * many frames costs two searches instead of two a frame. Past `limit`, the answer is exact.
 *
 * ```
 * meter = createFrameMeter()
 * meter(bytes('data: a\n\ndata: bc'))   // 9: "data: a\n\n" ended, "data: bc" (8) goes on
 * meter(bytes('d'))                     // 9: "data: bcd"
 * ```
 */
export function createFrameMeter(limit = 0): (bytes: Uint8Array) => number {
  let size = 0;
  let atLineStart = true;
  let afterCr = false;

  /** The frame going on at the chunk's end, found from its last blank line: the chunk has no CR and does not start after one. */
  const skim = (bytes: Uint8Array): number => {
    const bound = size + bytes.length;
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    const lastBlank = buffer.lastIndexOf(BLANK_LINE);
    if (lastBlank !== -1) size = bytes.length - lastBlank - 2;
    else if (atLineStart && bytes[0] === LF) size = bytes.length - 1;
    else size = bound;
    atLineStart = bytes[bytes.length - 1] === LF;
    return bound;
  };

  /** Each line of the chunk in turn. */
  const scan = (bytes: Uint8Array): number => {
    let largest = 0;
    let at = 0;
    // Native scans from one line break to the next: a byte-by-byte loop here cost more than parsing the frames.
    let nextLf = bytes.indexOf(LF);
    let nextCr = bytes.indexOf(CR);
    while (at < bytes.length) {
      if (nextLf !== -1 && nextLf < at) nextLf = bytes.indexOf(LF, at);
      if (nextCr !== -1 && nextCr < at) nextCr = bytes.indexOf(CR, at);
      const lineEnd = nextLf === -1 ? nextCr : nextCr === -1 ? nextLf : Math.min(nextLf, nextCr);
      const textEnd = lineEnd === -1 ? bytes.length : lineEnd;
      if (textEnd > at) {
        size += textEnd - at;
        atLineStart = false;
        afterCr = false;
      }
      if (lineEnd === -1) break;
      const byte = bytes[lineEnd];
      size++;
      at = lineEnd + 1;
      if (byte === LF && afterCr) {
        // The LF of a CRLF: the CR already ended the line.
        afterCr = false;
        continue;
      }
      if (atLineStart) {
        largest = Math.max(largest, size);
        size = 0;
      }
      atLineStart = true;
      afterCr = byte === CR;
    }
    return Math.max(largest, size);
  };

  return (bytes) => {
    if (bytes.length === 0) return size;
    return size + bytes.length <= limit && !afterCr && bytes.indexOf(CR) === -1 ? skim(bytes) : scan(bytes);
  };
}
