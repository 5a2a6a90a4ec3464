import { RxgateError } from './RxgateError.js';

/** Too many detached runs are in flight to start another. */
export class CapacityError extends RxgateError {
  constructor(
    readonly inFlight: number,
    readonly max: number,
  ) {
    super(`${inFlight} runs are already in flight, the most RXGATE_MAX_CONCURRENT_RUNS allows (${max}); retry when one has finished`);
  }
}
