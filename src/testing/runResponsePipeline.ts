import type { Observable } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import type { AgentEvent } from '../agent/agentEvent.js';
import { Cancellation } from '../agent/cancellation.js';
import type { PipelineOperators } from '../http/pipelineOperators.js';
import type { ResponseMeta, ResponseObject } from '../openai/responseObject.js';
import { applyOperators } from '../pipeline/applyOperators.js';
import type { PipelineContext } from '../pipeline/pipelineContext.js';
import { ssePipeline } from '../pipeline/ssePipeline.js';
import { ResponseDraft } from '../responses/ResponseDraft.js';
import { responseProtocol } from '../responses/responseProtocol.js';
import type { SseSink } from '../sse/sseSink.js';
import { recordedRun, type InterruptHandle } from './recordedRun.js';
import type { PipelineUnderTest } from './PipelineUnderTest.js';

/** The response every response pipeline under test builds, unless a script names its own. */
export const TEST_RESPONSE_META: ResponseMeta = {
  id: 'resp_test',
  createdAt: 1_700_000_000,
  model: 'rxgate-agent',
  instructions: null,
  previousResponseId: null,
  store: false,
  background: false,
};

export interface ResponsePipelineScript {
  /** What the agent emits. */
  readonly events$: Observable<AgentEvent>;
  /** When the client goes away. */
  readonly clientClose$: Observable<unknown>;
  /** The response: a `FakeSink` records what was written and when, and can stall or break. */
  readonly sink: SseSink;
  /** Default: `TEST_RESPONSE_META`. */
  readonly meta?: ResponseMeta;
  /**
   * Stores the finished response; the terminal event waits for it, as the server's does. Default: resolves at once,
   * which is still a promise: the terminal event is written after the virtual-time flush.
   */
  readonly onSettled?: (response: ResponseObject) => Promise<void>;
  /** Default: 1000 frames. */
  readonly keepaliveMs?: number;
  readonly maxBufferedBytes?: number;
  /** Default: `records`. */
  readonly interruptHandle?: InterruptHandle;
  /** User operators (`events`, `responseEvents`), instantiated with this request's context as the server instantiates them. */
  readonly operators?: PipelineOperators;
}

/**
 * rxgate's streaming Responses pipeline (`ssePipeline` with `responseProtocol`, as `POST /v1/responses`
 * with `stream: true` runs it) around a scripted run and a fake response, in virtual time.
 *
 * @example
 * testScheduler.run(({ cold, hot, expectObservable }) => {
 *   const sink = new FakeSink(testScheduler);
 *   const { output$, interrupts } = runResponsePipeline(testScheduler, { events$: cold('-a-b-c|', EVENTS), clientClose$: hot('---x'), sink });
 *   expectObservable(output$).toBe('(CI)-(ADT)-|', FRAMES);
 * });
 */
export function runResponsePipeline(scheduler: TestScheduler, script: ResponsePipelineScript): PipelineUnderTest {
  const meta = script.meta ?? TEST_RESPONSE_META;
  const cancellation = new Cancellation();
  const { run$, interrupts, aborts } = recordedRun(scheduler, script.events$, cancellation, script.interruptHandle);
  const context: PipelineContext = { cancellation, scheduler, model: meta.model };
  const protocol = responseProtocol(new ResponseDraft(meta), script.onSettled ?? (() => Promise.resolve()));
  const output$ = ssePipeline(run$, protocol, {
    sink: script.sink,
    clientClose$: script.clientClose$,
    cancellation,
    keepaliveMs: script.keepaliveMs ?? 1000,
    maxBufferedBytes: script.maxBufferedBytes,
    events: applyOperators(script.operators?.events, context),
    chunks: applyOperators(script.operators?.responseEvents, context),
    scheduler,
  });
  return { output$, interrupts, aborts };
}
