import { describe, expect, it } from 'vitest';
import { jsonString } from '../../../src/wire/jsonString.js';

describe('jsonString', () => {
  it('writes every UTF-16 code unit alone, and between letters, as JSON.stringify does', () => {
    for (let unit = 0; unit <= 0xffff; unit++) {
      const char = String.fromCharCode(unit);
      for (const text of [char, `a${char}b`]) expect(jsonString(text)).toBe(JSON.stringify(text));
    }
  });

  it('writes texts as JSON.stringify does', () => {
    const texts = [
      '',
      'Hello, world',
      'a "quote"',
      'C:\\path',
      'line\nbreak',
      'emoji 🌍',
      'lone \ud83c',
      'é 你 \u2028\u2029',
      '\u007f\u0080',
    ];
    for (const text of texts) expect(jsonString(text)).toBe(JSON.stringify(text));
  });
});
