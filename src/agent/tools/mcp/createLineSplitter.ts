import { McpMessageTooLargeError } from './McpMessageTooLargeError.js';

const LF = 0x0a;

/** Splits a byte stream into lines; see `createLineSplitter`. */
export interface LineSplitter {
  /** The lines `chunk` ended, without their newlines. */
  push(chunk: Buffer): Buffer[];
  /** The line that has not ended (at the end of the stream), if any; the splitter starts afresh. */
  rest(): Buffer | undefined;
}

/**
 * Splits a byte stream into lines (MCP's stdio framing: one JSON-RPC message a line), holding at
 * most `maxLineBytes` of a line that has not ended. Past that, `overlong: 'fail'` (the default)
 * throws `McpMessageTooLargeError` instead of buffering an endless line, and `'truncate'` keeps the
 * line's first `maxLineBytes` and drops the rest of it (for lines that are only logged). The
 * chunks of a line are kept as they came and joined once, when its newline arrives: joining at
 * every chunk would copy a long line over and over. The newline is not part of the line, nor
 * counted.
 *
 * ```
 * split = createLineSplitter(8)
 * split.push(bytes('{"a":1}\n{"b"'))   // ['{"a":1}']
 * split.push(bytes(':2}\n'))           // ['{"b":2}']
 * split.push(bytes('123456789'))       // throws McpMessageTooLargeError(8)
 * createLineSplitter(4, 'truncate').push(bytes('123456\n'))   // ['1234']
 * ```
 */
export function createLineSplitter(maxLineBytes: number, overlong: 'fail' | 'truncate' = 'fail'): LineSplitter {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const take = (bytes: Buffer) => {
    const room = maxLineBytes - pendingBytes;
    if (bytes.length > room) {
      if (overlong === 'fail') {
        pending = [];
        pendingBytes = 0;
        throw new McpMessageTooLargeError(maxLineBytes);
      }
      bytes = bytes.subarray(0, room);
    }
    if (bytes.length === 0) return;
    pending.push(bytes);
    pendingBytes += bytes.length;
  };
  const rest = () => {
    const line = pending.length === 0 ? undefined : pending.length === 1 ? pending[0] : Buffer.concat(pending);
    pending = [];
    pendingBytes = 0;
    return line;
  };
  return {
    push(chunk) {
      const lines: Buffer[] = [];
      let at = 0;
      for (let end = chunk.indexOf(LF); end !== -1; end = chunk.indexOf(LF, at)) {
        take(chunk.subarray(at, end));
        lines.push(rest() ?? Buffer.alloc(0));
        at = end + 1;
      }
      if (at < chunk.length) take(chunk.subarray(at));
      return lines;
    },
    rest,
  };
}
