import { RxgateError } from './RxgateError.js';

/** A `previous_response_id` chain longer than rxgate walks. */
export class ChainTooLongError extends RxgateError {
  constructor(
    readonly id: string,
    readonly maxLinks: number,
  ) {
    super(`the conversation of '${id}' is longer than ${maxLinks} responses`);
  }
}
