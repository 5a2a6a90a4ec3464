import { describe, expect, it } from 'vitest';
import { createTextBuffer } from '../../../src/agent/llm/createTextBuffer.js';

describe('createTextBuffer', () => {
  it('reads back every piece in order, across batches', () => {
    const buffer = createTextBuffer();
    const pieces = Array.from({ length: 1_000 }, (_, i) => `${i},`);
    for (const piece of pieces) buffer.append(piece);
    expect(buffer.text()).toBe(pieces.join(''));
  });

  it('is empty before anything is appended, and keeps empty pieces out of the way', () => {
    const buffer = createTextBuffer();
    expect(buffer.text()).toBe('');
    buffer.append('');
    buffer.append('👍');
    expect(buffer.text()).toBe('👍');
  });
});
