import { SpanKind, type Span } from '@opentelemetry/api';
import { defer, type Observable } from 'rxjs';
import type { RunTrace } from '../../tracing/RunTrace.js';
import { traced } from '../../tracing/traced.js';
import type { ChatMessage } from '../agent.js';
import type { UpstreamChunk } from '../../upstream/upstreamChunk.js';

export interface ModelCall {
  /** The model name the client asked for (a route's name); which upstream answered is the attempts' to tell. */
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  /** Which model call of the run this is, from 1. */
  readonly iteration: number;
}

/** Messages as the GenAI conventions' `gen_ai.input.messages` has them: a role and its parts. */
function toSemconvMessages(messages: readonly ChatMessage[]): string {
  return JSON.stringify(
    messages.map((message) => ({
      role: message.role,
      parts: [
        ...(message.content === null ? [] : [{ type: 'text', content: message.content }]),
        ...('tool_calls' in message && message.tool_calls
          ? message.tool_calls.map((call) => ({
              type: 'tool_call',
              id: call.id,
              name: call.function.name,
              arguments: call.function.arguments,
            }))
          : []),
      ],
      ...('tool_call_id' in message ? { id: message.tool_call_id } : {}),
    })),
  );
}

/**
 * One model call as a `chat {model}` client span (GenAI conventions): the request model, the
 * response's id, model, usage and finish reasons, the time to its first chunk, and with content
 * capture on the messages in and the text out. `call$` is handed the trace the call's upstream attempts are spans
 * of, under this one. A failure is an error with its `error.type`; a cancel is not.
 */
export function traceModelCall(
  trace: RunTrace,
  { model, messages, iteration }: ModelCall,
  call$: (trace: RunTrace) => Observable<UpstreamChunk>,
): Observable<UpstreamChunk> {
  // Per subscription, as the span is: a resubscribed call is another model call.
  return defer(() => traceOneCall(trace, { model, messages, iteration }, call$));
}

function traceOneCall(
  trace: RunTrace,
  { model, messages, iteration }: ModelCall,
  call$: (trace: RunTrace) => Observable<UpstreamChunk>,
): Observable<UpstreamChunk> {
  const { tracing } = trace;
  const started = performance.now();
  let first = true;
  let output = '';
  const finishReasons: string[] = [];
  const onValue = (span: Span, chunk: UpstreamChunk) => {
    if (first) {
      first = false;
      span.setAttribute('gen_ai.response.time_to_first_chunk', (performance.now() - started) / 1000);
    }
    // Each attempt's first chunk names its response: the last named is the one that answered.
    if (chunk.id !== undefined) span.setAttribute('gen_ai.response.id', chunk.id);
    if (chunk.model !== undefined) span.setAttribute('gen_ai.response.model', chunk.model);
    if (chunk.usage) {
      const { prompt_tokens, completion_tokens } = chunk.usage;
      if (prompt_tokens !== undefined) span.setAttribute('gen_ai.usage.input_tokens', prompt_tokens);
      if (completion_tokens !== undefined) span.setAttribute('gen_ai.usage.output_tokens', completion_tokens);
    }
    for (const choice of chunk.choices ?? []) {
      if (choice.finish_reason) finishReasons.push(choice.finish_reason);
      if (tracing.captureContent && choice.delta?.content) output += choice.delta.content;
    }
  };
  return traced(
    trace,
    {
      name: `chat ${model}`,
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': model,
        'rxgate.model_call': iteration,
        ...(tracing.captureContent ? { 'gen_ai.input.messages': toSemconvMessages(messages) } : {}),
      },
      onValue,
      onComplete: (span) => {
        span.setAttribute('gen_ai.response.finish_reasons', finishReasons);
        if (tracing.captureContent)
          span.setAttribute('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: output }] }]));
      },
    },
    (context) => call$({ ...trace, context }),
  );
}
