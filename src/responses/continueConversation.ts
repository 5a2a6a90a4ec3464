import type { HeldConversation } from '../openai/heldConversation.js';
import type { ResponseObject } from '../openai/responseObject.js';
import type { ResponseTurn } from './responseTurn.js';
import { toInputItems } from '../openai/toInputItems.js';

const CUT_AT_ITS_END: ReadonlySet<string | undefined> = new Set(['max_output_tokens', 'content_filter']);

/** Whether a settled response belongs in its conversation: it ran to its end, to the length limit, or to the upstream's content filter. */
const ranToItsEnd = (response: ResponseObject): boolean =>
  response.status === 'completed' || (response.status === 'incomplete' && CUT_AT_ITS_END.has(response.incomplete_details?.reason));

/**
 * The turn of a response that continues `conversation`: once the response settles (and is
 * stored), its input and output items are appended if it completed or ended at the length limit or the content filter,
 * never if it failed, was cancelled or interrupted; then the conversation is released. Its save
 * resolves after both, so that the terminal event is sent only then.
 */
export function continueConversation(turn: ResponseTurn, conversation: HeldConversation): ResponseTurn {
  return {
    ...turn,
    save: async (response) => {
      if (response.status === 'queued' || response.status === 'in_progress') return turn.save(response);
      try {
        await turn.save(response);
        // Input item ids are made from the response's, as `GET /v1/responses/{id}/input_items` lists them.
        if (ranToItsEnd(response)) await conversation.append([...toInputItems(response.id, turn.input), ...response.output]);
      } finally {
        await conversation.release();
      }
    },
  };
}
