import { describe, expect, it } from 'vitest';
import { SseFrameError } from '../../src/errors/SseFrameError.js';
import { serializeComment, serializeFrame } from '../../src/sse/serializeFrame.js';

describe('serializeFrame', () => {
  it('writes one data line and a blank line', () => {
    expect(serializeFrame({ data: '{"a":1}' })).toBe('data: {"a":1}\n\n');
  });

  it('splits multi-line data into several data lines, whatever the line ending', () => {
    expect(serializeFrame({ data: 'one\ntwo\r\nthree\rfour' })).toBe('data: one\ndata: two\ndata: three\ndata: four\n\n');
  });

  it('puts event, id and retry before the data', () => {
    expect(serializeFrame({ event: 'response.created', id: '7', retry: 3000, data: 'x' })).toBe(
      'event: response.created\nid: 7\nretry: 3000\ndata: x\n\n',
    );
  });

  it('throws on a newline inside event or id instead of breaking the frame', () => {
    expect(() => serializeFrame({ event: 'a\nb', data: 'x' })).toThrow(SseFrameError);
    expect(() => serializeFrame({ id: '1\r2', data: 'x' })).toThrow(SseFrameError);
    expect(() => serializeFrame({ retry: -1, data: 'x' })).toThrow(SseFrameError);
  });

  it('writes comments on one line', () => {
    expect(serializeComment('keep\nalive')).toBe(': keep alive\n\n');
  });
});
