import { describe, expect, it } from 'vitest';
import { createLineSplitter } from '../../../../src/agent/tools/mcp/createLineSplitter.js';
import { McpMessageTooLargeError } from '../../../../src/agent/tools/mcp/McpMessageTooLargeError.js';

const bytes = (text: string) => Buffer.from(text);
const texts = (lines: Buffer[]) => lines.map((line) => line.toString());

describe('createLineSplitter', () => {
  it('returns the lines each chunk ends, joining a line that spans chunks', () => {
    const split = createLineSplitter(8);

    expect(texts(split.push(bytes('{"a":1}\n{"b"')))).toEqual(['{"a":1}']);
    expect(texts(split.push(bytes(':2}')))).toEqual([]);
    expect(texts(split.push(bytes('\n\n{}\n')))).toEqual(['{"b":2}', '', '{}']);
  });

  it('takes a line of exactly maxLineBytes, its newline not counted', () => {
    const split = createLineSplitter(8);

    expect(texts(split.push(bytes('1234')))).toEqual([]);
    expect(texts(split.push(bytes('5678\n')))).toEqual(['12345678']);
  });

  it('throws McpMessageTooLargeError as soon as a line that has not ended passes maxLineBytes, and holds nothing of it', () => {
    const split = createLineSplitter(8);
    split.push(bytes('12345'));

    expect(() => split.push(bytes('6789'))).toThrow(new McpMessageTooLargeError(8));
    expect(split.rest()).toBeUndefined();
  });

  it('throws for a line over maxLineBytes that ends in the same chunk', () => {
    expect(() => createLineSplitter(8).push(bytes('ok\n123456789\n'))).toThrow(McpMessageTooLargeError);
  });

  it("with overlong 'truncate', keeps a long line's first maxLineBytes and drops the rest of it", () => {
    const split = createLineSplitter(4, 'truncate');

    expect(texts(split.push(bytes('123456')))).toEqual([]);
    expect(texts(split.push(bytes('789\nab\ncdefgh')))).toEqual(['1234', 'ab']);
    expect(split.rest()?.toString()).toBe('cdef');
    expect(split.rest()).toBeUndefined();
  });
});
