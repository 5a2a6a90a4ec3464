import type { Observable } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import type { AgentEvent } from '../agent/agentEvent.js';
import { Cancellation } from '../agent/cancellation.js';
import type { ChatCompletionMeta } from '../chat/chatCompletionChunk.js';
import { chatProtocol } from '../chat/chatProtocol.js';
import type { PipelineOperators } from '../http/pipelineOperators.js';
import { applyOperators } from '../pipeline/applyOperators.js';
import type { PipelineContext } from '../pipeline/pipelineContext.js';
import { ssePipeline } from '../pipeline/ssePipeline.js';
import type { SseSink } from '../sse/sseSink.js';
import type { PipelineUnderTest } from './PipelineUnderTest.js';
import { recordedRun, type InterruptHandle } from './recordedRun.js';

/** The chunk metadata of every chat pipeline under test, unless a script names its own. */
export const TEST_META: ChatCompletionMeta = { id: 'chatcmpl-test', created: 1_700_000_000, model: 'rxgate-agent', includeUsage: false };

export interface ChatPipelineScript {
  /** What the agent emits. */
  readonly events$: Observable<AgentEvent>;
  /** When the client goes away. */
  readonly clientClose$: Observable<unknown>;
  /** The response: a `FakeSink` records what was written and when, and can stall or break. */
  readonly sink: SseSink;
  /** Default: `TEST_META`. */
  readonly meta?: ChatCompletionMeta;
  /** Default: 1000 frames. */
  readonly keepaliveMs?: number;
  readonly maxBufferedBytes?: number;
  /** Default: `records`. */
  readonly interruptHandle?: InterruptHandle;
  /** User operators, instantiated with this request's context as the server instantiates them. */
  readonly operators?: PipelineOperators;
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
  const cancellation = new Cancellation();
  const { run$, interrupts, aborts } = recordedRun(scheduler, script.events$, cancellation, script.interruptHandle);
  const context: PipelineContext = { cancellation, scheduler, model: (script.meta ?? TEST_META).model };
  const output$ = ssePipeline(run$, chatProtocol(script.meta ?? TEST_META), {
    sink: script.sink,
    clientClose$: script.clientClose$,
    cancellation,
    keepaliveMs: script.keepaliveMs ?? 1000,
    maxBufferedBytes: script.maxBufferedBytes,
    events: applyOperators(script.operators?.events, context),
    chunks: applyOperators(script.operators?.chunks, context),
    scheduler,
  });
  return { output$, interrupts, aborts };
}
