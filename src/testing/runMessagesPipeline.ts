import type { TestScheduler } from 'rxjs/testing';
import type { MessageMeta } from '../messages/messageObjects.js';
import { messagesProtocol } from '../messages/messagesProtocol.js';
import type { PipelineUnderTest } from './PipelineUnderTest.js';
import { runSsePipeline, type SsePipelineScript } from './runSsePipeline.js';

/** The message every Messages pipeline under test answers with, unless a script names its own. */
export const TEST_MESSAGE_META: MessageMeta = { id: 'msg_test', model: 'rxgate-agent', inputTokens: 12 };

export interface MessagesPipelineScript extends SsePipelineScript {
  /** Default: `TEST_MESSAGE_META`. */
  readonly meta?: MessageMeta;
}

/**
 * rxgate's streaming Messages pipeline (`ssePipeline` with `messagesProtocol`, as `POST /v1/messages`
 * with `stream: true` runs it) around a scripted run and a fake response, in virtual time.
 *
 * @example
 * testScheduler.run(({ cold, hot, expectObservable }) => {
 *   const sink = new FakeSink(testScheduler);
 *   const { output$, interrupts } = runMessagesPipeline(testScheduler, { events$: cold('-a-b|', EVENTS), clientClose$: hot('---x'), sink });
 *   expectObservable(output$).toBe('S(BT)-|', FRAMES);
 * });
 */
export function runMessagesPipeline(scheduler: TestScheduler, script: MessagesPipelineScript): PipelineUnderTest {
  const meta = script.meta ?? TEST_MESSAGE_META;
  return runSsePipeline(scheduler, script, messagesProtocol(meta), meta.model, script.operators?.messageEvents);
}
