import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/agent/agent.js';
import { ConnectionMemory } from '../../../src/responses/socket/ConnectionMemory.js';

const said = (content: string): ChatMessage[] => [{ role: 'user', content }];

describe('a WebSocket connection’s memory of its responses', () => {
  it('recalls what it remembered, and forgets the oldest past its bound', () => {
    const memory = new ConnectionMemory(2);
    memory.remember('resp_1', said('one'));
    memory.remember('resp_2', said('two'));
    memory.remember('resp_3', said('three'));

    expect(memory.recall('resp_1')).toBeUndefined();
    expect(memory.recall('resp_2')?.messages).toEqual(said('two'));
    expect(memory.recall('resp_3')?.messages).toEqual(said('three'));
  });

  it('counts each conversation in the bytes of its JSON, as the conversation bound counts a stored one', () => {
    const memory = new ConnectionMemory(2);
    memory.remember('resp_1', said('naïve'));

    expect(memory.recall('resp_1')?.bytes).toBe(Buffer.byteLength('[{"role":"user","content":"naïve"}]'));
  });

  it('counts a conversation that continues a remembered one as its whole JSON, serialising only what it adds', () => {
    const memory = new ConnectionMemory(4);
    memory.remember('resp_1', said('one'));
    const continued = [...said('one'), { role: 'assistant', content: 'two' }, ...said('thrëe')] as ChatMessage[];
    memory.remember('resp_2', continued, memory.recall('resp_1'));
    memory.remember('resp_3', continued, memory.recall('resp_2'));

    expect(memory.recall('resp_2')?.bytes).toBe(Buffer.byteLength(JSON.stringify(continued)));
    expect(memory.recall('resp_3')?.bytes).toBe(Buffer.byteLength(JSON.stringify(continued)));
  });
});
