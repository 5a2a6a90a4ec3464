import { randomBytes } from 'node:crypto';
import { asyncScheduler, concat, defer, EMPTY, of, tap, using, type Observable, type SchedulerLike } from 'rxjs';
import { silentLogger, type Logger } from '../../logger.js';
import type { Agent, AgentRequest } from '../agent.js';
import type { AgentEvent, AgentEventOf } from '../agentEvent.js';
import { createAbortableRun } from '../createRun.js';
import { lastUserText } from '../lastUserText.js';
import { queueSteers } from '../queueSteers.js';
import { approvalPolicy } from '../tools/approvalPolicy.js';
import { gateToolCall, pendingApprovals, type ToolGate } from '../tools/gateToolCall.js';
import type { Tool } from '../tools/tool.js';
import { countWords } from './countWords.js';
import { paceWords } from './paceWords.js';
import { planOfflineAnswer } from './planOfflineAnswer.js';
import { ApprovedAlways } from '../tools/ApprovedAlways.js';

export interface OfflineAgentOptions {
  /** Default: a silent logger. */
  readonly logger?: Logger;
  /** The tools it may use; it knows how to use `current_time` and `calculator`. Default: none. */
  readonly tools?: readonly Tool[];
  /** The pause before each word. Default: 40 ms. */
  readonly delayMs?: number;
  /** Paces the words, and times approvals out. Default: `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** Which tools' calls wait for a person's approval. Default: those marked `requiresApproval`. */
  readonly requireApproval?: (tool: Tool) => boolean;
}

/** A call of the client tool `name` with `{}`, as a model obeying a forcing `tool_choice` would make it. */
function callClientTool(name: string, question: string): Observable<AgentEvent> {
  const inputTokens = countWords(question);
  return of<AgentEvent[]>(
    { type: 'tool_call_delta', index: 0, id: `call_${randomBytes(12).toString('hex')}`, name, arguments: '{}' },
    { type: 'usage', usage: { inputTokens, outputTokens: 0, totalTokens: inputTokens } },
    { type: 'finish', reason: 'tool_calls' },
  );
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
 * Asked to note something, it calls `note` (when switched on), which can be made to wait for
 * approval; a steer is answered in place of the answer that would have come next.
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
  const { tools = [], delayMs = 40, scheduler = asyncScheduler, requireApproval = approvalPolicy() } = options;
  const logger = (options.logger ?? silentLogger).child({ agent: 'offline' });
  const toolsByName = new Map(tools.map((tool) => [tool.name, tool]));
  const toolNames = new Set(toolsByName.keys());

  const agent: Agent = {
    description: `offline agent (no model; tools: ${[...toolNames].join(', ') || 'none'})`,
    serverToolNames: [...toolNames],
    run(request, cancellation) {
      return createAbortableRun(
        cancellation,
        (abort) => {
          const forced = forcedClientTool(request);
          if (forced !== undefined) return { events: callClientTool(forced, lastUserText(request.messages)) };
          const gate: ToolGate = {
            needsApproval: requireApproval,
            approvals: request.approvals,
            approvedAlways: new ApprovedAlways(),
            scheduler,
          };
          // A run nobody can approve in is not offered the tools that need approval.
          const offered = new Set(
            tools.filter((tool) => request.approvals !== undefined || !requireApproval(tool)).map((tool) => tool.name),
          );
          const steers = queueSteers(request.steers$);
          // The offline agent's "model call" is an answer: steers are taken before one starts, and answered instead of it.
          const steeredOr$ = (next$: () => Observable<AgentEvent>): Observable<AgentEvent> =>
            defer(() => {
              const taken = steers.take();
              if (taken.length === 0) return next$();
              return concat(
                taken.map((input): AgentEvent => ({ type: 'steered', input })),
                answer$(taken.at(-1)!),
              );
            });
          const answer$ = (question: string): Observable<AgentEvent> => {
            const plan = planOfflineAnswer(question, offered);
            const tool = plan.call && toolsByName.get(plan.call.name);
            const waiting = plan.call ? pendingApprovals([{ tool, call: plan.call }], gate) : [];
            if (waiting.length > 0) return of<AgentEvent[]>(...waiting, { type: 'finish', reason: 'stop' });
            let outcome: AgentEventOf<'tool_end'> | undefined;
            const tool$ = plan.call ? gateToolCall(tool, plan.call, abort.signal, gate) : EMPTY;
            return concat(
              tool$.pipe(
                tap((event) => {
                  if (event.type === 'tool_end') outcome = event;
                }),
              ),
              steeredOr$(() => {
                const answer = plan.answer(outcome);
                const inputTokens = countWords(question);
                const outputTokens = countWords(answer);
                return concat(
                  paceWords(answer, delayMs * (plan.pace ?? 1), scheduler),
                  of<AgentEvent>({ type: 'usage', usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens } }),
                  steeredOr$(() => of<AgentEvent>({ type: 'finish', reason: 'stop' })),
                );
              }),
            );
          };
          return {
            events: using(
              () => steers.subscription,
              () => answer$(lastUserText(request.messages)),
            ),
            interrupt: (reason) => logger.info({ reason }, 'offline run interrupted'),
          };
        },
        { logger },
      );
    },
  };
  return agent;
}
