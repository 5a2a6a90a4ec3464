import { describe, expect, it } from 'vitest';
import type { ClientTool } from '../../src/agent/agent.js';
import { clientToolConflicts } from '../../src/agent/clientToolConflicts.js';

const tool = (name: string): ClientTool => ({ type: 'function', function: { name } });

describe('clientToolConflicts', () => {
  it('names each client tool that takes a server tool name, with its position', () => {
    expect(clientToolConflicts(['current_time', 'calculator'], [tool('get_weather'), tool('calculator'), tool('current_time')])).toEqual([
      { index: 1, name: 'calculator' },
      { index: 2, name: 'current_time' },
    ]);
  });

  it('finds none when the names differ, or when either side has no tools', () => {
    expect(clientToolConflicts(['calculator'], [tool('get_weather')])).toEqual([]);
    expect(clientToolConflicts([], [tool('calculator')])).toEqual([]);
    expect(clientToolConflicts(['calculator'], [])).toEqual([]);
  });
});
