import type { MonoTypeOperatorFunction } from 'rxjs';
import type { ChatCompletionChunk } from '../chat/chatCompletionChunk.js';
import type { MessageStreamEvent } from '../messages/messageObjects.js';
import type { ResponseStreamEvent } from '../openai/responseObject.js';
import type { PipelineContext, EventOperator } from '../pipeline/pipelineContext.js';
import type { ProtocolOperators } from '../pipeline/protocolOperators.js';
import type { RunEvent } from '../runs/runEvent.js';

/** Makes the operator one response's protocol messages pass through, before serialisation; Chat Completions chunks unless it says otherwise. */
export type ChunkOperator<Chunk = ChatCompletionChunk> = (context: PipelineContext) => MonoTypeOperatorFunction<Chunk>;

/**
 * The extension point: operators a server applies to every stream, in order. `events` (over
 * `AgentEvent`) apply to every API: chat completions, responses (streaming, not, and in the
 * background), runs and Anthropic's messages. The chunk operators are typed per protocol: `chunks`
 * over chat completion chunks, `responseEvents` over the Responses API's events, `runEvents` over
 * a run's events, `messageEvents` over the Messages API's stream events.
 */
export interface PipelineOperators {
  readonly events?: readonly EventOperator[];
  readonly chunks?: readonly ChunkOperator[];
  readonly responseEvents?: readonly ChunkOperator<ResponseStreamEvent>[];
  readonly runEvents?: readonly ChunkOperator<RunEvent>[];
  readonly messageEvents?: readonly ChunkOperator<MessageStreamEvent>[];
}

/** The operators of each API, out of the server's. */
export function operatorsPerApi({ events, chunks, responseEvents, runEvents, messageEvents }: PipelineOperators): {
  readonly chat: ProtocolOperators<ChatCompletionChunk>;
  readonly responses: ProtocolOperators<ResponseStreamEvent>;
  readonly runs: ProtocolOperators<RunEvent>;
  readonly messages: ProtocolOperators<MessageStreamEvent>;
} {
  return {
    chat: { events, chunks },
    responses: { events, chunks: responseEvents },
    runs: { events, chunks: runEvents },
    messages: { events, chunks: messageEvents },
  };
}
