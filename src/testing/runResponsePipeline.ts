import type { TestScheduler } from 'rxjs/testing';
import type { ResponseMeta, ResponseObject } from '../openai/responseObject.js';
import { ResponseDraft } from '../responses/ResponseDraft.js';
import { responseProtocol } from '../responses/responseProtocol.js';
import type { PipelineUnderTest } from './PipelineUnderTest.js';
import { runSsePipeline, type SsePipelineScript } from './runSsePipeline.js';

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

export interface ResponsePipelineScript extends SsePipelineScript {
  /** Default: `TEST_RESPONSE_META`. */
  readonly meta?: ResponseMeta;
  /**
   * Stores the finished response; the terminal event waits for it, as the server's does. Default: resolves at once,
   * which is still a promise: the terminal event is written after the virtual-time flush.
   */
  readonly onSettled?: (response: ResponseObject) => Promise<void>;
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
  const protocol = responseProtocol(new ResponseDraft(meta), script.onSettled ?? (() => Promise.resolve()));
  return runSsePipeline(scheduler, script, protocol, meta.model, script.operators?.responseEvents);
}
