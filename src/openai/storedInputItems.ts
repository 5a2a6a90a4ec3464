import type { ChatMessage } from '../agent/agent.js';
import { toInputItems, type ListedInputItem } from './toInputItems.js';

/**
 * The input items of a stored response, from its stored turn: the turn is the input's messages,
 * then the one assistant message of the answer (`ResponseTurn.save` stores it so).
 */
export function storedInputItems(responseId: string, turn: readonly ChatMessage[]): ListedInputItem[] {
  return toInputItems(responseId, turn.slice(0, -1));
}
