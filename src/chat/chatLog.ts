import type { LoggedEvent } from '../store/EventLog.js';

/**
 * The events of an idempotent chat completion's log (see `answerChatOnce`): a stream's SSE frames
 * as sent (`frame`), then `end`; a non-streaming answer (`answer`: its status, headers and body);
 * or, after either's start, `released`: the first request gave the key up without an answer.
 */
export const ChatLogEvent = {
  frame: 'frame',
  end: 'end',
  answer: 'answer',
  released: 'released',
} as const;

/** Whether an event ends a chat completion's log. */
export const isChatLogEnd = ({ type }: LoggedEvent): boolean =>
  type === ChatLogEvent.end || type === ChatLogEvent.answer || type === ChatLogEvent.released;
