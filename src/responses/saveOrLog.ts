import type { Logger } from '../logger.js';
import type { ResponseObject } from '../openai/responseObject.js';
import type { ResponseTurn } from './responseTurn.js';

/** `turn.save` for a response already answered: a store that fails then is logged, and the answer stands. */
export function saveOrLog(turn: ResponseTurn, logger: Logger): (response: ResponseObject) => Promise<void> {
  return (response) =>
    turn.save(response).catch((error: unknown) => logger.error({ err: error }, 'the response was answered but could not be stored'));
}
