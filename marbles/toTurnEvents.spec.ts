import { describe, it } from 'vitest';
import type { UpstreamChunk } from '../src/agent/llm/upstreamChunk.js';
import { toTurnEvents } from '../src/agent/llm/toTurnEvents.js';
import { marbles } from './support/marbles.js';

type Delta = NonNullable<NonNullable<UpstreamChunk['choices']>[number]['delta']>;
const choice = (delta: Delta, finish_reason: string | null = null): UpstreamChunk => ({ choices: [{ delta, finish_reason }] });
const CHUNKS: Record<string, UpstreamChunk> = {
  b: choice({ reasoning_content: 'think', content: 'Hi' }),
  c: choice({ content: ' there' }),
  t: choice({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'calculator', arguments: '{"expression":' } }] }),
  u: choice({ tool_calls: [{ index: 0, function: { arguments: '"1+1"}' } }] }, 'tool_calls'),
  s: { choices: [], usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 } },
};

describe('toTurnEvents', () => {
  it('emits reasoning before content from one chunk, then usage and the assembled turn end', marbles((m) => {
    const source$ =  m.cold('-b----c--t-u-s|', CHUNKS);
    const expected =        '-(RT)-C-------(UE|)';

    m.expect<unknown>(source$.pipe(toTurnEvents())).toBeObservable(expected, {
      R: { type: 'reasoning', delta: 'think' },
      T: { type: 'text', delta: 'Hi' },
      C: { type: 'text', delta: ' there' },
      U: { type: 'usage', usage: { inputTokens: 5, outputTokens: 3, totalTokens: 8 } },
      E: {
        type: 'turn_end',
        content: 'Hi there',
        toolCalls: [{ id: 'call_1', type: 'function', function: { name: 'calculator', arguments: '{"expression":"1+1"}' } }],
        finishReason: 'tool_calls',
      },
    });
  }));
});
