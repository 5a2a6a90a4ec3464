import { describe, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agentEvent.js';
import { toChatChunks } from '../../src/chat/toChatChunks.js';
import { META } from '../support/chatFrames.js';
import { marbles } from '../support/marbles.js';

const base = { id: META.id, object: 'chat.completion.chunk', created: META.created, model: META.model };
const chunk = (delta: object, finishReason: string | null = null, usage?: null) => ({
  ...base,
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  ...(usage === null ? { usage: null } : {}),
});
const EVENTS: Record<string, AgentEvent> = {
  t: { type: 'text', delta: 'hi' },
  r: { type: 'reasoning', delta: 'hmm' },
  s: { type: 'tool_start', callId: 'c1', name: 'calculator', arguments: '{}' },
  u: { type: 'usage', usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } },
  v: { type: 'usage', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
  l: { type: 'finish', reason: 'length' },
};

describe('toChatChunks', () => {
  it('emits the role chunk at subscription, then one chunk per delta, reasoning as reasoning_content', marbles((m) => {
    const source$ =  m.cold('-t-r-s-l|', EVENTS);
    const expected =        'RT-Q---L(|)';

    m.expect<unknown>(source$.pipe(toChatChunks(META))).toBeObservable(expected, {
      R: chunk({ role: 'assistant' }),
      T: chunk({ content: 'hi' }),
      Q: chunk({ reasoning_content: 'hmm' }),
      L: chunk({}, 'length'),
    });
  }));

  it('finishes with stop when the run completes without a finish event', marbles((m) => {
    const source$ =  m.cold('-t|', EVENTS);
    const expected =        'RT(S|)';

    m.expect<unknown>(source$.pipe(toChatChunks(META))).toBeObservable(expected, {
      R: chunk({ role: 'assistant' }),
      T: chunk({ content: 'hi' }),
      S: chunk({}, 'stop'),
    });
  }));

  it('with include_usage, sets usage: null everywhere and sums usage into a last chunk with no choices', marbles((m) => {
    const meta = { ...META, includeUsage: true };
    const source$ =  m.cold('-tu-v-l|', EVENTS);
    const expected =        'RT----L(U|)';

    m.expect<unknown>(source$.pipe(toChatChunks(meta))).toBeObservable(expected, {
      R: chunk({ role: 'assistant' }, null, null),
      T: chunk({ content: 'hi' }, null, null),
      L: chunk({}, 'length', null),
      U: { ...base, choices: [], usage: { prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 } },
    });
  }));

  it('emits no finish chunk for a failed run', marbles((m) => {
    const source$ =  m.cold('-t-#', EVENTS);
    const expected =        'RT-#';

    m.expect<unknown>(source$.pipe(toChatChunks(META))).toBeObservable(expected, {
      R: chunk({ role: 'assistant' }),
      T: chunk({ content: 'hi' }),
    });
  }));
});
