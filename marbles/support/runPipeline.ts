import type { Observable } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import type { AgentEvent } from '../../src/agent/agentEvent.js';
import { Cancellation } from '../../src/agent/cancellation.js';
import { createRun } from '../../src/agent/createRun.js';
import type { InterruptReason } from '../../src/agent/interruptReason.js';
import { streamToClient } from '../../src/http/streamToClient.js';
import { chatCompletionFrames } from '../../src/chat/chatCompletionFrames.js';
import { compactChatFrames } from '../../src/chat/compactChatFrames.js';
import { applyOperators } from '../../src/pipeline/applyOperators.js';
import type { PipelineContext, PipelineOperators } from '../../src/chat/pipelineOperators.js';
import { META } from './chatFrames.js';
import type { FakeSink } from './fakeSink.js';

export interface PipelineScript {
  readonly events$: Observable<AgentEvent>;
  readonly clientClose$: Observable<unknown>;
  readonly sink: FakeSink;
  readonly keepaliveMs?: number;
  readonly maxBufferedBytes?: number;
  /** `none`: the run has no interrupt handle; `throws`: its interrupt throws. */
  readonly interruptHandle?: 'records' | 'none' | 'throws';
  /** User operators, instantiated with this request's context as the route would. */
  readonly operators?: PipelineOperators;
}

export interface PipelineUnderTest {
  readonly output$: Observable<string>;
  /** Each interrupt call, with the virtual frame it happened at. */
  readonly interrupts: { reason: InterruptReason; frame: number }[];
  /** The frames at which a run's AbortSignal fired. */
  readonly aborts: number[];
}

/** The real chat pipeline, as the route builds it, around a scripted run and a fake response. */
export function runPipeline(scheduler: TestScheduler, script: PipelineScript): PipelineUnderTest {
  const cancellation = new Cancellation();
  const interrupts: PipelineUnderTest['interrupts'] = [];
  const aborts: number[] = [];
  const handle = script.interruptHandle ?? 'records';
  const run$ = createRun(cancellation, (signal) => {
    signal.addEventListener('abort', () => aborts.push(scheduler.now()));
    if (handle === 'none') return { events: script.events$ };
    return {
      events: script.events$,
      interrupt: (reason) => {
        interrupts.push({ reason, frame: scheduler.now() });
        if (handle === 'throws') throw new Error('interrupt failed');
      },
    };
  });
  const context: PipelineContext = { cancellation, scheduler, model: META.model };
  const operators = script.operators && {
    events: [applyOperators(script.operators.events, context)],
    chunks: [applyOperators(script.operators.chunks, context)],
  };
  const output$ = streamToClient(chatCompletionFrames(run$, META, undefined, operators), {
    sink: script.sink,
    clientClose$: script.clientClose$,
    cancellation,
    keepaliveMs: script.keepaliveMs ?? 1000,
    maxBufferedBytes: script.maxBufferedBytes,
    compact: compactChatFrames,
    scheduler,
  });
  return { output$, interrupts, aborts };
}
