import { describe, expect, it } from 'vitest';
import { encodeUtf8 } from '../../../src/wire/encodeUtf8.js';

describe('encodeUtf8', () => {
  const texts: Record<string, string> = {
    'ASCII only': 'data: {"a":"x"}\n\n'.repeat(300),
    nothing: '',
    'a short text past ASCII': 'é',
    'two- to four-byte characters after ASCII': `${'data: x\n\n'.repeat(500)}é 你 🌍 end`,
    'a four-byte character from the start': '🌍'.repeat(2000),
    'a lone surrogate': `ab\uD800cd${'x'.repeat(5000)}`,
  };
  for (const [name, text] of Object.entries(texts)) {
    it(`encodes ${name} as Buffer.from does, into a buffer of its own`, () => {
      const bytes = encodeUtf8(text);
      expect(bytes.equals(Buffer.from(text))).toBe(true);
      expect(bytes.byteOffset).toBe(0);
      expect(bytes.buffer.byteLength).toBe(bytes.length);
    });
  }
});
