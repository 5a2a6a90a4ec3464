import type { ChatMessage, ClientTool, ModelOptions, ResponseFormat, ToolChoice } from '../agent/agent.js';
import { assertObjectBody, invalidRequest } from '../errors/invalidRequest.js';
import { unsupportedParameter } from '../errors/unsupportedParameter.js';
import { definedFields } from '../openai/modelOptionFields.js';
import { messagesRequestSchema, messagesRequestShape, type MessagesRequestBody } from './messagesRequestSchema.js';
import { toAgentMessages } from './toAgentMessages.js';
import type { z } from 'zod';

export interface MessagesRequest {
  readonly model: string;
  readonly stream: boolean;
  /** The body as read, for counting its tokens. */
  readonly body: MessagesRequestBody;
  readonly messages: readonly ChatMessage[];
  readonly clientTools: readonly ClientTool[];
  readonly toolChoice: ToolChoice | undefined;
  readonly parallelToolCalls: boolean | undefined;
  readonly options: ModelOptions;
  /** Top-level fields rxgate does not read (`context_management`, `container`, betas' fields), dropped. */
  readonly dropped: readonly string[];
}

const READ = new Set(Object.keys(messagesRequestShape));

/** A `document` block: only Anthropic's own models read one, and rxgate's upstream speaks OpenAI's chat. */
function findDocument(body: Record<string, unknown>): string | undefined {
  const { messages } = body;
  if (!Array.isArray(messages)) return undefined;
  for (const [at, message] of messages.entries()) {
    const content = (message as { content?: unknown } | null)?.content;
    if (!Array.isArray(content)) continue;
    const block = content.findIndex((part) => (part as { type?: unknown } | null)?.type === 'document');
    if (block >= 0) return `messages[${at}].content[${block}]`;
  }
  return undefined;
}

/** A JSON Schema without `$schema`, which some OpenAI-wire upstreams refuse in a tool's parameters. */
function withoutDialect(schema: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  if (!('$schema' in schema)) return schema;
  return Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema'));
}

function toToolChoice(choice: MessagesRequestBody['tool_choice']): ToolChoice | undefined {
  switch (choice?.type) {
    case undefined:
      return undefined;
    case 'auto':
      return 'auto';
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
  }
}

/** Anthropic's `effort` as OpenAI's `reasoning_effort`. */
const EFFORT = { low: 'low', medium: 'medium', high: 'high', max: 'xhigh' } as const;

function toOptions(body: z.output<typeof messagesRequestSchema>): ModelOptions {
  const { max_tokens, temperature, top_p, stop_sequences, metadata, output_config } = body;
  const format = output_config?.format;
  const responseFormat: ResponseFormat | undefined = format
    ? { type: 'json_schema', json_schema: { name: 'output', schema: format.schema, strict: true } }
    : undefined;
  return definedFields({
    max_tokens,
    temperature,
    top_p,
    stop: stop_sequences,
    user: metadata?.user_id ?? undefined,
    reasoning_effort: output_config?.effort === undefined ? undefined : EFFORT[output_config.effort],
    response_format: responseFormat,
  }) as ModelOptions;
}

/** The body of a Messages request or of `count_tokens`, checked; anything wrong is a 400 naming its path. */
export function readMessagesBody<S extends z.ZodType>(body: unknown, schema: S): z.output<S> {
  assertObjectBody(body);
  const document = findDocument(body);
  if (document) throw unsupportedParameter(document, 'document blocks are read only by an Anthropic upstream; send the text instead');
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw invalidRequest(parsed.error, body);
  return parsed.data;
}

/**
 * A `POST /v1/messages` body as the agent's request: the system prompt and messages as a chat
 * conversation, the tools as client tools (`any` as `required`, `disable_parallel_tool_use` as
 * `parallel_tool_calls: false`), `stop_sequences`, `metadata.user_id`, `output_config` (`effort`,
 * `format`) under their chat names. `thinking` and `top_k` are accepted and not forwarded (an
 * OpenAI-wire model thinks, or not, on its own; chat has no `top_k`); top-level fields rxgate does
 * not know are dropped and listed, so that a newer client is never refused for them.
 */
export function parseMessagesRequest(raw: unknown): MessagesRequest {
  const body = readMessagesBody(raw, messagesRequestSchema);
  const { model, stream, system, messages, tools = [], tool_choice } = body;
  return {
    model,
    stream: stream ?? false,
    body,
    messages: toAgentMessages(system, messages),
    clientTools: tools.map(({ name, description, input_schema }) => ({
      type: 'function',
      function: { name, ...(description === undefined ? {} : { description }), parameters: withoutDialect(input_schema) },
    })),
    toolChoice: toToolChoice(tool_choice),
    parallelToolCalls:
      tool_choice !== undefined && 'disable_parallel_tool_use' in tool_choice && tool_choice.disable_parallel_tool_use ? false : undefined,
    options: toOptions(body),
    dropped: Object.keys(raw as object).filter((field) => !READ.has(field)),
  };
}
