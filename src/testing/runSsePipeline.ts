import type { Observable } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import type { AgentEvent } from '../agent/agentEvent.js';
import { Cancellation } from '../agent/cancellation.js';
import type { ChunkOperator, PipelineOperators } from '../http/pipelineOperators.js';
import { applyOperators } from '../pipeline/applyOperators.js';
import type { PipelineContext } from '../pipeline/pipelineContext.js';
import { ssePipeline } from '../pipeline/ssePipeline.js';
import type { SseProtocol } from '../pipeline/sseProtocol.js';
import type { SseSink } from '../sse/sseSink.js';
import type { PipelineUnderTest } from './PipelineUnderTest.js';
import { recordedRun, type InterruptHandle } from './recordedRun.js';

/** What every SSE pipeline under test is given, whatever its protocol. */
export interface SsePipelineScript {
  /** What the agent emits. */
  readonly events$: Observable<AgentEvent>;
  /** When the client goes away. */
  readonly clientClose$: Observable<unknown>;
  /** The response: a `FakeSink` records what was written and when, and can stall or break. */
  readonly sink: SseSink;
  /** Default: 1000 frames. */
  readonly keepaliveMs?: number;
  readonly maxBufferedBytes?: number;
  /** Default: `records`. */
  readonly interruptHandle?: InterruptHandle;
  /** User operators, instantiated with this request's context as the server instantiates them. */
  readonly operators?: PipelineOperators;
}

/** `ssePipeline` with `protocol` around the script's recorded run, the user's `events` and the protocol's `chunks` operators applied. */
export function runSsePipeline<Out>(
  scheduler: TestScheduler,
  script: SsePipelineScript,
  protocol: SseProtocol<AgentEvent, Out>,
  model: string,
  chunks: readonly ChunkOperator<Out>[] | undefined,
): PipelineUnderTest {
  const cancellation = new Cancellation();
  const { run$, interrupts, aborts } = recordedRun(scheduler, script.events$, cancellation, script.interruptHandle);
  const context: PipelineContext = { cancellation, scheduler, model };
  const output$ = ssePipeline(run$, protocol, {
    sink: script.sink,
    clientClose$: script.clientClose$,
    cancellation,
    keepaliveMs: script.keepaliveMs ?? 1000,
    maxBufferedBytes: script.maxBufferedBytes,
    events: applyOperators(script.operators?.events, context),
    chunks: applyOperators(chunks, context),
    scheduler,
  });
  return { output$, interrupts, aborts };
}
