import { RxgateError } from './RxgateError.js';

/** Which limit a run broke: its total duration, or the time before its first text. */
export type DeadlineErrorCode = 'deadline_exceeded' | 'first_token_timeout';

/** A run took longer than the deadline it was given and was stopped (see `deadline()`). */
export class DeadlineError extends RxgateError {
  constructor(
    readonly code: DeadlineErrorCode,
    readonly limitMs: number,
  ) {
    super(
      code === 'deadline_exceeded'
        ? `the run did not finish within its deadline of ${limitMs} ms and was stopped (raise totalMs of deadline() if answers legitimately take longer)`
        : `the agent sent no text within ${limitMs} ms and the run was stopped (raise firstTokenMs of deadline() if the model legitimately thinks longer)`,
    );
  }
}
