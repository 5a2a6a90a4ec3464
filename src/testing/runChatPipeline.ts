import type { TestScheduler } from 'rxjs/testing';
import type { ChatCompletionMeta } from '../chat/chatCompletionChunk.js';
import { chatProtocol } from '../chat/chatProtocol.js';
import type { PipelineUnderTest } from './PipelineUnderTest.js';
import { runSsePipeline, type SsePipelineScript } from './runSsePipeline.js';

/** The chunk metadata of every chat pipeline under test, unless a script names its own. */
export const TEST_META: ChatCompletionMeta = { id: 'chatcmpl-test', created: 1_700_000_000, model: 'rxgate-agent', includeUsage: false };

export interface ChatPipelineScript extends SsePipelineScript {
  /** Default: `TEST_META`. */
  readonly meta?: ChatCompletionMeta;
}

/**
 * rxgate's own chat pipeline (`ssePipeline` with `chatProtocol`, exactly as the server runs it)
 * around a scripted run and a fake response, in virtual time: the harness rxgate's marble specs
 * use, for marble-testing your own operators the same way.
 *
 * @example
 * testScheduler.run(({ cold, hot, expectObservable }) => {
 *   const sink = new FakeSink(testScheduler);
 *   const { output$, interrupts } = runChatPipeline(testScheduler, { events$: cold('-a-b-f|', EVENTS), clientClose$: hot('---x'), sink });
 *   expectObservable(output$).toBe('R-A-|', FRAMES);
 * });
 */
export function runChatPipeline(scheduler: TestScheduler, script: ChatPipelineScript): PipelineUnderTest {
  const meta = script.meta ?? TEST_META;
  return runSsePipeline(scheduler, script, chatProtocol(meta), meta.model, script.operators?.chunks);
}
