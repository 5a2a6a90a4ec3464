import { describe, expect, it } from 'vitest';
import { Cancellation } from '../../../../src/agent/cancellation.js';
import { createOfflineAgent } from '../../../../src/agent/offline/createOfflineAgent.js';
import { selectTools } from '../../../../src/agent/tools/createToolRegistry.js';
import { collectRun, textOf } from '../../../support/collectRun.js';

const ask = (content: string) => ({ model: 'rxgate-agent', messages: [{ role: 'user' as const, content }] });
const agent = createOfflineAgent({ tools: selectTools(['current_time', 'calculator']), delayMs: 0 });

describe('the offline agent with its tools', () => {
  it('uses the calculator for arithmetic and answers with the result', async () => {
    const { events, error } = await collectRun(agent.run(ask('What is 6 * (3 + 4)?'), new Cancellation()));
    expect(error).toBeUndefined();
    expect(events[0]).toEqual({
      type: 'tool_start',
      callId: 'call_offline_calculator',
      name: 'calculator',
      arguments: '{"expression":"6 * (3 + 4)"}',
    });
    expect(events[1]).toMatchObject({ type: 'tool_end', name: 'calculator', result: '42' });
    expect(textOf(events)).toContain('6 * (3 + 4) = 42.');
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('uses current_time for a question about the time, in the zone it names', async () => {
    const { events } = await collectRun(agent.run(ask('What time is it in Asia/Tokyo?'), new Cancellation()));
    expect(events[0]).toMatchObject({ type: 'tool_start', name: 'current_time', arguments: '{"timezone":"Asia/Tokyo"}' });
    expect(textOf(events)).toMatch(/Right now it is UTC: \d{4}-.*, or in Asia\/Tokyo: /);
  });

  it('answers without tools when none are on', async () => {
    const bare = createOfflineAgent({ delayMs: 0 });
    const { events } = await collectRun(bare.run(ask('What is 2 + 2?'), new Cancellation()));
    expect(events.some((event) => event.type === 'tool_start')).toBe(false);
    expect(textOf(events)).toMatch(/^Hello! I am rxgate's offline agent\./);
  });
});
