import { describe, expect, it, vi } from 'vitest';
import { readUpstreamChunk } from '../../../../src/upstream/openaiChat/readUpstreamChunk.js';
import { TextFrameTemplate } from '../../../../src/upstream/openaiChat/TextFrameTemplate.js';
import type { UpstreamChunk } from '../../../../src/upstream/upstreamChunk.js';

/** What `upstreamChunks` reads of a frame by parsing it. */
function parsed(data: string): UpstreamChunk | undefined {
  const read = readUpstreamChunk(JSON.parse(data));
  return 'chunk' in read ? read.chunk : undefined;
}

/** Feeds the frames as `upstreamChunks` does: the template's chunk, else the parsed one, which it then learns. */
function feed(template: TextFrameTemplate, frames: readonly string[]): { templated: boolean[]; chunks: (UpstreamChunk | undefined)[] } {
  const templated: boolean[] = [];
  const chunks = frames.map((data) => {
    const fast = template.read(data);
    templated.push(fast !== undefined);
    if (fast) return fast;
    const chunk = parsed(data);
    if (chunk) template.learn(data, chunk);
    return chunk;
  });
  return { templated, chunks };
}

const vllm = (content: string, extra = '') =>
  `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m"${extra},"choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}},"logprobs":null,"finish_reason":null}]}`;
/** OpenAI's frames, as its API sends them: the same but for the content and the padding's random value. */
const openai = (content: string, padding: string) =>
  `{"id":"chatcmpl-D0q8","object":"chat.completion.chunk","created":1769092764,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":"fp_29330a9688","choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}},"logprobs":null,"finish_reason":null}],"obfuscation":${JSON.stringify(padding)}}`;
const spaced = (content: string) =>
  `{"id": "c", "choices": [{"index": 0, "delta": {"role": null, "content": ${JSON.stringify(content)}, "reasoning_content": null}, "finish_reason": null}]}`;

describe('TextFrameTemplate', () => {
  it('reads the frames after a text frame as parsing them would, whatever the spacing', () => {
    for (const frame of [vllm, spaced]) {
      const frames = ['Hello', ' world', '', ' and', 'é 😀 \u2028'].map((text) => frame(text));
      const { templated, chunks } = feed(new TextFrameTemplate(), frames);

      expect(templated).toEqual([false, true, true, true, true]);
      expect(chunks).toStrictEqual(frames.map(parsed));
    }
  });

  it('parses a frame whose text needs unescaping, or whose other fields differ, and reads the next plain one again', () => {
    const frames = [
      vllm('a'),
      vllm('say "hi"'),
      vllm('line\nbreak'),
      vllm('b', ',"system_fingerprint":"fp"'),
      vllm('c', ',"system_fingerprint":"fp"'),
      vllm('tab\there'),
      vllm('d'),
    ];
    const { templated, chunks } = feed(new TextFrameTemplate(), frames);

    expect(templated).toEqual([false, false, false, false, true, false, false]);
    expect(chunks).toStrictEqual(frames.map(parsed));
  });

  it('leaves a finish, reasoning, tool calls, usage and the [DONE] marker to the parser', () => {
    const template = new TextFrameTemplate();
    feed(template, [vllm('a')]);
    const others = [
      vllm('a').replace('"finish_reason":null', '"finish_reason":"stop"'),
      vllm('a').replace('"content":"a"', '"reasoning_content":"a"'),
      vllm('a').replace('"content":"a"', '"content":"a","tool_calls":[{"index":0,"function":{"arguments":"{}"}}]'),
      `${vllm('a').slice(0, -1)},"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`,
      '[DONE]',
    ];

    expect(others.map((data) => template.read(data))).toEqual(others.map(() => undefined));
  });

  it('learns no frame that carries more than text, nor a text it cannot place for certain', () => {
    const notLearnt = [
      // The text twice: which one is the content cannot be told from the bytes.
      '{"id":"x","choices":[{"delta":{"content":"x"}}]}',
      // Written escaped, while another field has it verbatim: the probe finds that field is not the content.
      '{"note":"hi","choices":[{"delta":{"content":"h\\u0069"}}]}',
      // Verbatim only in the first of two `choices`, while JSON.parse keeps the later one.
      '{"choices":[{"delta":{"content":"r"}}],"choices":[{"delta":{"content":"\\u0072"}}]}',
      // Verbatim only in another field, while the content is the same text escaped: only one probe reads as itself.
      '{"x":"rxgate-template-probe-1","choices":[{"delta":{"content":"rxgate-template-probe-\\u0031"}}]}',
      vllm('a').replace('"finish_reason":null', '"finish_reason":"length"'),
    ];
    for (const data of notLearnt) {
      const template = new TextFrameTemplate();
      template.learn(data, parsed(data)!);
      const next = data
        .replaceAll('x', 'y')
        .replaceAll('hi', 'yo')
        .replace('"r"', '"s"')
        .replace('"a"', '"b"')
        .replace('"rxgate-template-probe-1"', '"z"');

      expect(template.read(next), data).toBeUndefined();
      expect(template.read(data), data).toBeUndefined();
    }
  });

  it('stops learning once its learning costs more than it saves, whatever the upstream varies', () => {
    // Each shape serves one frame before the next two frames change it: the most a learn can earn.
    const frames = Array.from({ length: 500 }, (_, n) => [
      vllm('a', `,"n":${n}`),
      vllm('b', `,"n":${n}`),
      vllm('c', `,"other":${n}`),
      vllm('d', `,"third":${n}`),
    ]).flat();
    const template = new TextFrameTemplate();
    const parse = vi.spyOn(JSON, 'parse');
    let templateParses = 0;
    const templated = frames.map((data) => {
      if (template.read(data)) return true;
      const chunk = parsed(data)!;
      const before = parse.mock.calls.length;
      template.learn(data, chunk);
      templateParses += parse.mock.calls.length - before;
      return false;
    });
    parse.mockRestore();
    const saved = templated.filter(Boolean).length;

    expect(saved).toBeGreaterThan(0);
    // A learn parses the frame twice (the probes) and copies what it keeps (two more small parses);
    // three learns are free, and one more is allowed for every three frames read from a template.
    expect(templateParses).toBeLessThanOrEqual(4 * (3 + saved / 3 + 1));
  });

  it("reads OpenAI's frames whatever their padding, and parses one whose padding or text needs unescaping", () => {
    const frames = [
      openai('Hello', 'ZGF'),
      openai(',', 'lRK2aBv'),
      openai(' World', ''),
      openai('!', 'kJ\\"x'),
      openai('tab\there', 'kJ'),
      openai('again', '0wmdEAC'),
      openai('and again', 'x1'),
      // A padding that is not the frame's last field is not a padding.
      openai('not last', 'Ab').replace(/}$/, ',"n":1}'),
    ];
    const { templated, chunks } = feed(new TextFrameTemplate(), frames);

    expect(templated).toEqual([false, true, true, false, false, false, true, false]);
    expect(chunks).toStrictEqual(frames.map(parsed));
  });

  it('reads no frame cut inside its padding, which is not JSON', () => {
    const template = new TextFrameTemplate();
    feed(template, [openai('a', 'ZGF')]);

    expect(template.read(openai('b', 'kJ'))).toBeDefined();
    expect(template.read(openai('b', 'kJ').replace(/"kJ"}$/, '"}'))).toBeUndefined();
    expect(template.read(openai('b', 'kJ').replace(/"}$/, '}'))).toBeUndefined();
  });

  it('takes no padding for a field of that name inside the choice, nor for one that is not last', () => {
    const inChoice = (content: string, padding: string) =>
      `{"id":"c","choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}},"obfuscation":${JSON.stringify(padding)}}]}`;
    const notLast = (content: string, padding: string) =>
      `{"id":"c","choices":[{"delta":{"content":${JSON.stringify(content)}}}],"obfuscation":${JSON.stringify(padding)},"n":1}`;
    for (const frame of [inChoice, notLast]) {
      const { templated } = feed(new TextFrameTemplate(), [frame('a', 'p'), frame('b', 'p'), frame('c', 'other')]);

      expect(templated).toEqual([false, true, false]);
    }
  });

  it('gives learning up after three templates that matched nothing, as for an upstream that varies every frame', () => {
    const template = new TextFrameTemplate();
    const varying = [1, 2, 3, 4, 5].map((n) => vllm('a', `,"sequence":${n}`));
    const { templated } = feed(template, [...varying, vllm('b'), vllm('c')]);

    expect(templated).toEqual([false, false, false, false, false, false, false]);
  });

  it('goes on learning while its templates match, as for an upstream whose `created` changes every second', () => {
    const frames = [1, 2, 3, 4, 5].flatMap((second) => ['a', 'b'].map((text) => vllm(text).replace('"created":1', `"created":${second}`)));
    const { templated, chunks } = feed(new TextFrameTemplate(), frames);

    expect(templated).toEqual([false, true, false, true, false, true, false, true, false, true]);
    expect(chunks).toStrictEqual(frames.map(parsed));
  });
});
