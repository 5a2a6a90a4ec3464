import { describe, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agentEvent.js';
import { AgentError } from '../../src/errors/AgentError.js';
import { toRunEvents } from '../../src/runs/toRunEvents.js';
import { marbles } from '../support/marbles.js';

const EVENTS: Record<string, AgentEvent> = {
  t: { type: 'text', delta: 'hi' },
  r: { type: 'reasoning', delta: 'hmm' },
  s: { type: 'tool_start', callId: 'c1', name: 'calculator', arguments: '{}' },
  e: { type: 'tool_end', callId: 'c1', name: 'calculator', error: 'bad expression', durationMs: 2 },
  u: { type: 'usage', usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } },
  p: { type: 'tool_progress', callId: 'c1', name: 'files__copy', progress: 2, total: 4, message: 'half way' },
  q: { type: 'tool_progress', callId: 'c1', name: 'files__copy', progress: 3 },
  a: { type: 'approval_required', approvalId: 'apr_1', callId: 'c2', name: 'note', arguments: '{"text":"milk"}', expiresAt: 600_000 },
  d: { type: 'approval_resolved', approvalId: 'apr_1', callId: 'c2', name: 'note', choice: 'deny', reason: 'no', by: 'api', requestId: 'req-1', at: 5_999 },
  z: { type: 'steered', input: 'use ink' },
  n: { type: 'refusal', delta: 'I cannot ' },
  o: { type: 'refusal', delta: 'help.' },
};

describe('toRunEvents', () => {
  it('emits message.delta, reasoning.delta, tool.started and tool.completed, then run.completed with the output and summed usage', marbles((m) => {
    const source$ =  m.cold('-t-r-s-e-u-t-u|', EVENTS);
    const expected =        '-D-E-S-C---D--(R|)';

    m.expect<unknown>(source$.pipe(toRunEvents())).toBeObservable(expected, {
      D: { type: 'message.delta', delta: 'hi' },
      E: { type: 'reasoning.delta', delta: 'hmm' },
      S: { type: 'tool.started', call_id: 'c1', name: 'calculator', arguments: '{}' },
      C: { type: 'tool.completed', call_id: 'c1', name: 'calculator', error: 'bad expression', duration_ms: 2 },
      R: { type: 'run.completed', output: 'hihi', refusal: null, usage: { input_tokens: 6, output_tokens: 4, total_tokens: 10 } },
    });
  }));

  it('emits refusal.delta per refusal delta, and run.completed with the refusal apart from the output', marbles((m) => {
    const source$ =  m.cold('-n-o|', EVENTS);
    const expected =        '-N-O(R|)';

    m.expect<unknown>(source$.pipe(toRunEvents())).toBeObservable(expected, {
      N: { type: 'refusal.delta', delta: 'I cannot ' },
      O: { type: 'refusal.delta', delta: 'help.' },
      R: { type: 'run.completed', output: '', refusal: 'I cannot help.', usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 } },
    });
  }));

  it('emits tool.progress for each progress report of a tool, with total and message only when reported', marbles((m) => {
    const source$ =  m.cold('-p-q|', EVENTS);
    const expected =        '-P-Q(R|)';

    m.expect<unknown>(source$.pipe(toRunEvents())).toBeObservable(expected, {
      P: { type: 'tool.progress', call_id: 'c1', name: 'files__copy', progress: 2, total: 4, message: 'half way' },
      Q: { type: 'tool.progress', call_id: 'c1', name: 'files__copy', progress: 3 },
      R: { type: 'run.completed', output: '', refusal: null, usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 } },
    });
  }));

  it('ends a failed run with run.failed carrying the OpenAI error, then completes', marbles((m) => {
    const source$ =  m.cold('-t-#', EVENTS, new AgentError('the tool broke', 'tool_failed'));
    const expected =        '-D-(F|)';

    m.expect<unknown>(source$.pipe(toRunEvents())).toBeObservable(expected, {
      D: { type: 'message.delta', delta: 'hi' },
      F: { type: 'run.failed', error: { message: 'rxgate: the tool broke', type: 'server_error', code: 'tool_failed' } },
    });
  }));

  it('emits approval.required and approval.resolved (times in Unix seconds) and run.steered', marbles((m) => {
    const source$ =  m.cold('-a-d-z|', EVENTS);
    const expected =        '-A-D-Z(R|)';

    m.expect<unknown>(source$.pipe(toRunEvents())).toBeObservable(expected, {
      A: { type: 'approval.required', approval_id: 'apr_1', call_id: 'c2', tool: 'note', arguments: '{"text":"milk"}', expires_at: 600 },
      D: { type: 'approval.resolved', approval_id: 'apr_1', call_id: 'c2', tool: 'note', choice: 'deny', reason: 'no', resolved_by: 'api', request_id: 'req-1', resolved_at: 5 },
      Z: { type: 'run.steered', input: 'use ink' },
      R: { type: 'run.completed', output: '', refusal: null, usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 } },
    });
  }));
});
