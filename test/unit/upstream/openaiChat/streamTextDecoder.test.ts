import { describe, expect, it } from 'vitest';
import { StreamTextDecoder } from '../../../../src/upstream/openaiChat/StreamTextDecoder.js';

/** Every way to cut `bytes` into three chunks (some empty). */
function* cuts(bytes: Buffer): Generator<Buffer[]> {
  for (let a = 0; a <= bytes.length; a++)
    for (let b = a; b <= bytes.length; b++) yield [bytes.subarray(0, a), bytes.subarray(a, b), bytes.subarray(b)];
}

const decodeAll = (decoder: { decode(bytes: Buffer): string }, chunks: Buffer[]) => chunks.map((chunk) => decoder.decode(chunk)).join('');
const reference = (chunks: Buffer[]) => {
  const decoder = new TextDecoder();
  return chunks.map((chunk) => decoder.decode(chunk, { stream: true })).join('');
};

describe('StreamTextDecoder', () => {
  const streams: Record<string, Buffer> = {
    'ASCII only': Buffer.from('data: {"a":"x"}\n\n'),
    'two- to four-byte characters between ASCII': Buffer.from('a é b 你 c 🌍 d'),
    'a leading BOM': Buffer.from('\uFEFFdata: x\n\n'),
    'a BOM after the start': Buffer.from('ab\uFEFFcd'),
    'a cut-off character before ASCII': Buffer.concat([Buffer.from('ab'), Buffer.from('é').subarray(0, 1), Buffer.from('cd')]),
    'a stray continuation byte': Buffer.from([0x61, 0x80, 0x62, 0x0a]),
    'a character cut off at the end': Buffer.from('abc🌍').subarray(0, 5),
  };
  for (const [name, bytes] of Object.entries(streams)) {
    it(`reads ${name} as TextDecoder does, however the stream is cut`, () => {
      for (const chunks of cuts(bytes)) expect(decodeAll(new StreamTextDecoder(), chunks), JSON.stringify(chunks)).toBe(reference(chunks));
    });
  }
});
