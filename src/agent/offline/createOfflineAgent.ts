import { randomBytes } from 'node:crypto';
import { asyncScheduler, concat, defer, EMPTY, of, tap, type SchedulerLike } from 'rxjs';
import { silentLogger, type Logger } from '../../logger.js';
import type { Agent, AgentRequest } from '../agent.js';
import type { AgentEvent, AgentEventOf } from '../agentEvent.js';
import { createRun } from '../createRun.js';
import { lastUserText } from '../lastUserText.js';
import { runToolCall } from '../tools/runToolCall.js';
import type { Tool } from '../tools/tool.js';
import { countWords } from './countWords.js';
import { paceWords } from './paceWords.js';
import { planOfflineAnswer } from './planOfflineAnswer.js';

export interface OfflineAgentOptions {
  /** Default: a silent logger. */
  readonly logger?: Logger;
  /** The tools it may use; it knows how to use `current_time` and `calculator`. Default: none. */
  readonly tools?: readonly Tool[];
  /** The pause before each word. Default: 40 ms. */
  readonly delayMs?: number;
  /** Paces the words. Default: `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/** The client tool a `tool_choice` of `required` (the first one) or naming a client tool forces, if any. */
function forcedClientTool({ clientTools = [], toolChoice }: AgentRequest): string | undefined {
  if (toolChoice === 'required') return clientTools[0]?.function.name;
  if (typeof toolChoice !== 'object') return undefined;
  return clientTools.find((tool) => tool.function.name === toolChoice.function.name)?.function.name;
}

/**
 * The agent that needs no network: it streams a scripted multi-sentence answer one word at a
 * time, using `current_time` when asked for the time or date and `calculator` when the question
 * holds arithmetic, and reports a word count as usage. Asked for a long story, it tells one over
 * about a minute, so that stopping or resuming a run can be tried by hand. Interruptible like any agent.
 *
 * ```
 * delayMs = 4, a question with arithmetic:
 * run:   (se)---w---w---w ... (uf|)        s/e = tool start/end, w = word, u = usage, f = finish
 * ```
 *
 * It has no model to fill in a client tool's arguments, so it offers client tools nothing, except
 * when `tool_choice` forces one (`required`: the first; or one by name): then it calls that tool
 * with `{}` and finishes `tool_calls`, as a model obeying the choice would. Sampling options have
 * nothing to act on and are ignored.
 *
 * ```
 * run:   (duf|)        d = tool_call_delta with id, name and '{}', u = usage, f = finish tool_calls
 * ```
 */
export function createOfflineAgent(options: OfflineAgentOptions = {}): Agent {
  const { tools = [], delayMs = 40, scheduler = asyncScheduler } = options;
  const logger = (options.logger ?? silentLogger).child({ agent: 'offline' });
  const toolsByName = new Map(tools.map((tool) => [tool.name, tool]));
  const toolNames = new Set(toolsByName.keys());

  const agent: Agent = {
    description: `offline agent (no model; tools: ${[...toolNames].join(', ') || 'none'})`,
    serverToolNames: [...toolNames],
    run(request, cancellation) {
      return createRun(
        cancellation,
        (signal) => ({
          events: defer(() => {
            const question = lastUserText(request.messages);
            const forced = forcedClientTool(request);
            if (forced !== undefined) {
              const inputTokens = countWords(question);
              return of<AgentEvent[]>(
                { type: 'tool_call_delta', index: 0, id: `call_${randomBytes(12).toString('hex')}`, name: forced, arguments: '{}' },
                { type: 'usage', usage: { inputTokens, outputTokens: 0, totalTokens: inputTokens } },
                { type: 'finish', reason: 'tool_calls' },
              );
            }
            const plan = planOfflineAnswer(question, toolNames);
            let outcome: AgentEventOf<'tool_end'> | undefined;
            const tool$ = plan.call ? runToolCall(toolsByName.get(plan.call.name), plan.call, signal) : EMPTY;
            return concat(
              tool$.pipe(
                tap((event) => {
                  if (event.type === 'tool_end') outcome = event;
                }),
              ),
              defer(() => {
                const answer = plan.answer(outcome);
                const inputTokens = countWords(question);
                const outputTokens = countWords(answer);
                return concat(
                  paceWords(answer, delayMs * (plan.pace ?? 1), scheduler),
                  of<AgentEvent[]>(
                    { type: 'usage', usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens } },
                    { type: 'finish', reason: 'stop' },
                  ),
                );
              }),
            );
          }),
          interrupt: (reason) => logger.info({ reason }, 'offline run interrupted'),
        }),
        { logger },
      );
    },
  };
  return agent;
}
