const LF = 0x0a;
const CR = 0x0d;

/**
 * Measures the SSE frames of a byte stream: fed each chunk as it arrives, it returns the size in
 * bytes of the largest frame that chunk ended or extended, a frame being everything since the last
 * blank line (`\n\n`, `\r\r`, `\r\n\r\n` and their mixtures end one). An event is dispatched at a
 * blank line, so this bounds what an SSE parser may have to hold. LF and CR never occur inside a
 * UTF-8 sequence, so the bytes need no decoding.
 *
 * ```
 * meter = createFrameMeter()
 * meter(bytes('data: a\n\ndata: bc'))   // 9: "data: a\n\n" ended, "data: bc" (8) goes on
 * meter(bytes('d'))                     // 9: "data: bcd"
 * ```
 */
export function createFrameMeter(): (bytes: Uint8Array) => number {
  let size = 0;
  let atLineStart = true;
  let afterCr = false;
  return (bytes) => {
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
}
