import { describe, expect, it } from 'vitest';
import { ResponseDraft } from '../../../src/responses/ResponseDraft.js';
import type { HostedCallItem } from '../../../src/openai/responseObject.js';

// A stand-in's call cut short by a stop: each hosted item ends in a status its type has.

const draftFor = (item: HostedCallItem['type']) =>
  new ResponseDraft({
    id: 'resp_0123456789abcdef0123456789abcdef',
    createdAt: 0,
    model: 'm',
    instructions: null,
    previousResponseId: null,
    store: false,
    background: false,
    hostedCalls: { lookup: item },
  });

describe('a hosted call item cut short', () => {
  it.each([
    ['web_search_call', 'failed'],
    ['file_search_call', 'incomplete'],
  ] as const)('closes a running %s as %s, the queries from its arguments', (type, status) => {
    const draft = draftFor(type);
    draft.apply({ type: 'tool_start', callId: 'c1', name: 'lookup', arguments: '{"queries":["a","b"]}' });
    const closing = draft.interrupted();

    const done = closing.find((event) => event.type === 'response.output_item.done');
    expect(done).toMatchObject({ output_index: 0, item: { type, status } });
    expect(JSON.stringify(done)).toContain('["a","b"]');
    expect(closing.at(-1)!.type).toBe('response.incomplete');
  });
});
