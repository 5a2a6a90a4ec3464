import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/agent/agent.js';
import { findOrphanToolMessage } from '../../src/agent/findOrphanToolMessage.js';

const call = (id: string) => ({ id, type: 'function' as const, function: { name: 'get_weather', arguments: '{}' } });
const user: ChatMessage = { role: 'user', content: 'weather?' };

describe('findOrphanToolMessage', () => {
  it('finds nothing when every tool result answers an earlier call', () => {
    expect(
      findOrphanToolMessage([
        user,
        { role: 'assistant', content: null, tool_calls: [call('call_1'), call('call_2')] },
        { role: 'tool', tool_call_id: 'call_2', content: 'rain' },
        { role: 'tool', tool_call_id: 'call_1', content: 'sun' },
        { role: 'assistant', content: 'Mixed.' },
        { role: 'tool', tool_call_id: 'call_1', content: 'sun again' },
      ]),
    ).toBeUndefined();
  });

  it('returns the index of a tool result whose call was never made', () => {
    expect(findOrphanToolMessage([user, { role: 'assistant', content: null, tool_calls: [call('call_1')] }, { role: 'tool', tool_call_id: 'call_9', content: 'x' }])).toBe(2);
  });

  it('returns the index of a tool result that comes before its call', () => {
    expect(findOrphanToolMessage([user, { role: 'tool', tool_call_id: 'call_1', content: 'x' }, { role: 'assistant', content: null, tool_calls: [call('call_1')] }])).toBe(1);
  });
});
