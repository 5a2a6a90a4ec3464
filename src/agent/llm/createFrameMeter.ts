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
    for (let at = 0; at < bytes.length; at++) {
      const byte = bytes[at]!;
      size++;
      if (byte === LF && afterCr) {
        // The LF of a CRLF: the CR already ended the line.
        afterCr = false;
        continue;
      }
      if (byte === LF || byte === CR) {
        if (atLineStart) {
          largest = Math.max(largest, size);
          size = 0;
        }
        atLineStart = true;
        afterCr = byte === CR;
      } else {
        atLineStart = false;
        afterCr = false;
      }
    }
    return Math.max(largest, size);
  };
}
