import type { Observable } from 'rxjs';
import type { RecordedRun } from './recordedRun.js';

/** A pipeline around a recorded run: what it emits, and when the run was interrupted and aborted. */
export interface PipelineUnderTest<Out = string> extends Omit<RecordedRun, 'run$'> {
  /** What the pipeline emits: for an SSE pipeline, the frames handed to the sink. */
  readonly output$: Observable<Out>;
}
