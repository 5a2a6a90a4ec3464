import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agentEvent.js';
import { InterruptReason } from '../../src/agent/interruptReason.js';
import { AgentError } from '../../src/errors/AgentError.js';
import { messageErrorFrame } from '../../src/messages/messageErrorFrame.js';
import { PING_FRAME } from '../../src/messages/messagesProtocol.js';
import { FakeSink, runMessagesPipeline } from '../../src/testing.js';
import { marbles } from '../support/marbles.js';

const START =
  'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_test","type":"message","role":"assistant","model":"rxgate-agent",' +
  '"content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":1}}}\n\n';
const blockStart = (index: number, block: string) =>
  `event: content_block_start\ndata: {"type":"content_block_start","index":${index},"content_block":${block}}\n\n`;
const json = (index: number, partial: string) =>
  `event: content_block_delta\ndata: {"type":"content_block_delta","index":${index},"delta":{"type":"input_json_delta","partial_json":${JSON.stringify(partial)}}}\n\n`;

const EVENTS = {
  a: { type: 'tool_call_delta', index: 0, id: 'toolu_1', name: 'Bash', arguments: '{"command":' },
  b: { type: 'tool_call_delta', index: 0, arguments: '"ls' },
  c: { type: 'tool_call_delta', index: 0, arguments: ' -la"' },
  d: { type: 'tool_call_delta', index: 0, arguments: '}' },
  t: { type: 'text', delta: 'Hi' },
} satisfies Record<string, AgentEvent>;

describe('the Messages pipeline', () => {
  it('ends at the frame the client leaves, in the middle of a call\'s input_json_delta, and interrupts the run once', marbles((m) => {
    const sink = new FakeSink(m.scheduler);
    const events$ =      m.cold('-a---b---c---d|', EVENTS);
    const eventsSubs =          '^-----!';
    const clientClose$ = m.hot( '------x');
    const expected =            'S(BJ)K|';

    const { output$, interrupts, aborts } = runMessagesPipeline(m.scheduler, { events$, clientClose$, sink });
    m.expect(output$).toBeObservable(expected, {
      S: START,
      B: blockStart(0, '{"type":"tool_use","id":"toolu_1","name":"Bash","input":{}}'),
      J: json(0, '{"command":'),
      K: json(0, '"ls'),
    });
    m.expect(events$).toHaveSubscriptions(eventsSubs);
    m.flush();

    expect(interrupts).toEqual([{ reason: InterruptReason.clientDisconnected, frame: 6 }]);
    expect(aborts).toEqual([6]);
  }));

  it('sends message_start before the upstream says anything, and ping events from the first byte on', marbles((m) => {
    const sink = new FakeSink(m.scheduler);
    const events$ =      m.cold<AgentEvent>('-');
    const clientClose$ = m.hot( '2500ms x');
    const expected =            'S 999ms P 999ms P 499ms |';

    const { output$ } = runMessagesPipeline(m.scheduler, { events$, clientClose$, sink, keepaliveMs: 1000 });
    m.expect(output$).toBeObservable(expected, { S: START, P: PING_FRAME });
  }));

  it('ends a run that fails after its content with one error event and nothing after it', marbles((m) => {
    const failure = new AgentError('the upstream went away');
    const sink = new FakeSink(m.scheduler);
    const events$ =      m.cold('-t---#', EVENTS, failure);
    const clientClose$ = m.hot<unknown>('-');
    const expected =            'S(BT)(R|)';

    const { output$ } = runMessagesPipeline(m.scheduler, { events$, clientClose$, sink });
    m.expect(output$).toBeObservable(expected, {
      S: START,
      B: blockStart(0, '{"type":"text","text":""}'),
      T: 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}\n\n',
      R: messageErrorFrame(failure),
    });
    expect(messageErrorFrame(failure)).toBe(
      'event: error\ndata: {"type":"error","error":{"type":"api_error","message":"rxgate: the upstream went away (agent_error)"}}\n\n',
    );
  }));
});
