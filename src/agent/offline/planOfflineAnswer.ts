import type { AgentEventOf } from '../agentEvent.js';
import type { ToolCallRequest } from '../tools/runToolCall.js';
import { findArithmetic } from './findArithmetic.js';
import { LONG_STORY, LONG_STORY_PACE, LONG_STORY_REQUEST } from './longStory.js';

/** What the offline agent will do for one question: maybe one tool call, then an answer built from its outcome. */
export interface OfflinePlan {
  readonly call?: ToolCallRequest;
  answer(outcome?: AgentEventOf<'tool_end'>): string;
  /** How many times the agent's word delay each word of the answer waits. Default: 1. */
  readonly pace?: number;
}

export const OFFLINE_GREETING =
  "Hello! I am rxgate's offline agent. No language model is configured, so I answer from a script, " +
  'one word at a time, exactly as a model would stream. I can still tell you the current time, ' +
  'or work out arithmetic such as 2 * (3 + 4) with my calculator tool. ' +
  'Point rxgate at an OpenAI-compatible model to have a real conversation.';

const NOTE_REQUEST = /\b(note|remember|write down)\b/i;
const MAX_NOTE_CHARS = 200;
const TIME_QUESTION = /\b(time|date|day|today|clock|what year)\b/i;
const TIME_ZONE = /\b(UTC|[A-Z][a-z]+\/[A-Z][A-Za-z_]+(?:\/[A-Z][A-Za-z_]+)?)\b/;

function toolFailed(name: string, outcome: AgentEventOf<'tool_end'> | undefined): string {
  return `I tried my ${name} tool, but it reported a problem: ${outcome?.error ?? 'no result'}. Please rephrase and I will try again.`;
}

/**
 * Decides the offline answer to `question` with the tools that are switched on: `calculator` for
 * a question holding an arithmetic expression, `note` when asked to note or remember something,
 * a slowly told long story when asked for one,
 * `current_time` for a question about the time or date (in the IANA zone it names, if any), else
 * a greeting that says what this agent is.
 */
export function planOfflineAnswer(question: string, toolNames: ReadonlySet<string>): OfflinePlan {
  const expression = toolNames.has('calculator') ? findArithmetic(question) : undefined;
  if (expression !== undefined) {
    return {
      call: { callId: 'call_offline_calculator', name: 'calculator', arguments: JSON.stringify({ expression }) },
      answer: (outcome) =>
        outcome?.result !== undefined
          ? `I worked that out with my calculator tool: ${expression} = ${outcome.result}. ` +
            'The calculator parses the expression itself, so the answer is exact rather than guessed.'
          : toolFailed('calculator', outcome),
    };
  }
  if (toolNames.has('note') && NOTE_REQUEST.test(question)) {
    const text = question.trim().slice(0, MAX_NOTE_CHARS);
    return {
      call: { callId: 'call_offline_note', name: 'note', arguments: JSON.stringify({ text }) },
      answer: (outcome) =>
        outcome?.result !== undefined
          ? `I used my note tool. It said: ${outcome.result}`
          : `My note tool did not run: ${outcome?.error ?? 'no result'}. Nothing was noted.`,
    };
  }
  if (LONG_STORY_REQUEST.test(question)) return { answer: () => LONG_STORY, pace: LONG_STORY_PACE };
  if (toolNames.has('current_time') && TIME_QUESTION.test(question)) {
    const timezone = TIME_ZONE.exec(question)?.[1];
    return {
      call: { callId: 'call_offline_time', name: 'current_time', arguments: JSON.stringify(timezone ? { timezone } : {}) },
      answer: (outcome) =>
        outcome?.result !== undefined
          ? `I checked the clock with my current_time tool. Right now it is ${outcome.result.split('\n').join(', or in ')}. ` +
            "That comes from the server's own clock, so it is as accurate as the machine running rxgate."
          : toolFailed('current_time', outcome),
    };
  }
  return { answer: () => OFFLINE_GREETING };
}
