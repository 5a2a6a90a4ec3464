import { RxgateError } from './RxgateError.js';

/** A `previous_response_id` conversation larger than rxgate loads (`RXGATE_MAX_CONVERSATION_BYTES`). */
export class ConversationTooLargeError extends RxgateError {
  constructor(
    readonly id: string,
    readonly bytes: number,
    readonly maxBytes: number,
  ) {
    super(
      `the conversation of '${id}' is ${bytes} bytes, over the limit of ${maxBytes} (RXGATE_MAX_CONVERSATION_BYTES); ` +
        'start a new conversation, or continue from an earlier response',
    );
  }
}
