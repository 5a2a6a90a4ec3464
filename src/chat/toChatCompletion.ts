import { defer, map, reduce, type OperatorFunction } from 'rxjs';
import type { ToolCall } from '../agent/agent.js';
import type { AgentEvent, AgentEventOf, FinishReason, Usage } from '../agent/agentEvent.js';
import { assembleToolCalls } from '../agent/assembleToolCalls.js';
import { sumUsage, ZERO_USAGE } from '../agent/sumUsage.js';
import type { ChatCompletionMeta, ChatUsage } from './chatCompletionChunk.js';
import { toChatUsage } from './toChatChunks.js';
import { customInput } from '../openai/customToolArguments.js';

/** The non-streaming `chat.completion` object. */
export interface ChatCompletion {
  readonly id: string;
  readonly object: 'chat.completion';
  readonly created: number;
  readonly model: string;
  readonly choices: readonly [
    {
      readonly index: 0;
      readonly message: {
        readonly role: 'assistant';
        /** Null when the answer is client tool calls or a refusal and no text, as OpenAI has it. */
        readonly content: string | null;
        /** The model declining to answer, when it did. */
        readonly refusal?: string;
        readonly reasoning_content?: string;
        readonly tool_calls?: readonly (ToolCall | CustomToolCall)[];
      };
      readonly logprobs: null;
      readonly finish_reason: FinishReason;
    },
  ];
  readonly usage: ChatUsage;
}

/** A call of one of the client's custom tools, with the free-form input the model gave. */
interface CustomToolCall {
  readonly id: string;
  readonly type: 'custom';
  readonly custom: { readonly name: string; readonly input: string };
}

/** A call as the client's tool has it: a custom tool's with its input, a function's as it is. */
function asClientCall(call: ToolCall, customTools: ReadonlySet<string> | undefined): ToolCall | CustomToolCall {
  if (!customTools?.has(call.function.name)) return call;
  return { id: call.id, type: 'custom', custom: { name: call.function.name, input: customInput(call.function.arguments) } };
}

/** What a run has said so far: one per subscription (made in `defer`), so it is filled in place, not copied per delta. */
interface Answer {
  content: string;
  reasoning: string;
  refusal: string;
  readonly toolCallDeltas: AgentEventOf<'tool_call_delta'>[];
  usage: Usage;
  finishReason: FinishReason | undefined;
}

function accumulate(answer: Answer, event: AgentEvent): Answer {
  switch (event.type) {
    case 'text':
      answer.content += event.delta;
      break;
    case 'reasoning':
      answer.reasoning += event.delta;
      break;
    case 'refusal':
      answer.refusal += event.delta;
      break;
    case 'tool_call_delta':
      answer.toolCallDeltas.push(event);
      break;
    case 'usage':
      answer.usage = sumUsage(answer.usage, event.usage);
      break;
    case 'finish':
      answer.finishReason ??= event.reason;
      break;
  }
  return answer;
}

function toMessage(
  { content, reasoning, refusal, toolCallDeltas }: Answer,
  customTools: ReadonlySet<string> | undefined,
): ChatCompletion['choices'][0]['message'] {
  const toolCalls = assembleToolCalls(toolCallDeltas).map((call) => asClientCall(call, customTools));
  return {
    role: 'assistant',
    content: content === '' && (toolCalls.length > 0 || refusal !== '') ? null : content,
    ...(refusal ? { refusal } : {}),
    ...(reasoning ? { reasoning_content: reasoning } : {}),
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
}

/**
 * Collects a whole run into one `chat.completion`, emitted when the run completes; client tool
 * calls become `message.tool_calls` and a refusal `message.refusal`, with `content: null` when there is no text.
 *
 * ```
 * source:   --t--t--f--|
 * result:   -----------(C|)
 * ```
 */
export function toChatCompletion(meta: ChatCompletionMeta): OperatorFunction<AgentEvent, ChatCompletion> {
  return (events$) =>
    defer(() =>
      events$.pipe(
        reduce<AgentEvent, Answer>(accumulate, {
          content: '',
          reasoning: '',
          refusal: '',
          toolCallDeltas: [],
          usage: ZERO_USAGE,
          finishReason: undefined,
        }),
        map((answer) => ({
          id: meta.id,
          object: 'chat.completion' as const,
          created: meta.created,
          model: meta.model,
          choices: [
            {
              index: 0 as const,
              message: toMessage(answer, meta.customTools),
              logprobs: null,
              finish_reason: answer.finishReason ?? 'stop',
            },
          ] as const,
          usage: toChatUsage(answer.usage),
        })),
      ),
    );
}
