import { describe, expect, it } from 'vitest';
import { triageInbound, type InboundInterest } from '../../../../src/agent/tools/mcp/triageInbound.js';

const interest: InboundInterest = {
  notifications: new Set(['notifications/progress', 'notifications/cancelled', 'notifications/tools/list_changed']),
  awaits: (id) => id === 3 || id === 'call-3',
};

describe('triageInbound', () => {
  it('drops a notification the client does not act on', () => {
    expect(triageInbound({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } }, interest)).toBe('drop');
    expect(triageInbound({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' }, interest)).toBe('drop');
  });

  it('keys progress by its token and list_changed by its list, so that only the latest of a run is delivered', () => {
    expect(triageInbound({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 3, progress: 1 } }, interest)).toBe(
      'notifications/progress 3',
    );
    expect(
      triageInbound({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: '3', progress: 1 } }, interest),
    ).toBe('notifications/progress "3"');
    expect(triageInbound({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }, interest)).toBe('notifications/tools/list_changed');
  });

  it('delivers a notification it acts on that has no later one to stand for it', () => {
    expect(triageInbound({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'r' } }, interest)).toBe('deliver');
  });

  it('delivers an answer the client waits for, and drops one to a request it never sent or no longer waits for', () => {
    expect(triageInbound({ jsonrpc: '2.0', id: 3, result: {} }, interest)).toBe('deliver');
    expect(triageInbound({ jsonrpc: '2.0', id: 'call-3', error: { code: 1, message: 'no' } }, interest)).toBe('deliver');
    expect(triageInbound({ jsonrpc: '2.0', id: 'never-asked', result: {} }, interest)).toBe('drop');
    expect(triageInbound({ jsonrpc: '2.0', id: 4, result: {} }, interest)).toBe('drop');
  });

  it('delivers requests, and what is no JSON-RPC message, for the SDK to answer or report', () => {
    expect(triageInbound({ jsonrpc: '2.0', id: 'r1', method: 'roots/list' }, interest)).toBe('deliver');
    expect(triageInbound({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }, interest)).toBe('deliver');
    expect(triageInbound([{ jsonrpc: '2.0', method: 'notifications/message' }], interest)).toBe('deliver');
    expect(triageInbound(42, interest)).toBe('deliver');
    expect(triageInbound({ jsonrpc: '2.0', method: 7 }, interest)).toBe('deliver');
  });
});
