import { z } from 'zod';
import type { ChatMessage, ClientTool, ModelOptions, ToolChoice } from '../agent/agent.js';
import { RequestError } from '../errors/RequestError.js';
import { assertObjectBody, invalidRequest } from '../errors/invalidRequest.js';
import { unsupportedParameter } from '../errors/unsupportedParameter.js';
import { boundSchema } from '../openai/boundSchema.js';
import { customArguments, customToolOffer } from '../openai/customToolArguments.js';
import { findUnsupportedChatParameter } from './findUnsupportedChatParameter.js';
import { definedFields, functionName, jsonSchema, modelOptionFields } from '../openai/modelOptionFields.js';
import { hasText } from '../agent/hasText.js';
import { readPlainChatRequest } from './readPlainChatRequest.js';
import { MAX_MESSAGES, MAX_PARTS, MAX_TEXT_CHARS } from '../openai/limits.js';

const text = z.string().max(MAX_TEXT_CHARS, `text longer than ${MAX_TEXT_CHARS} characters`);
const part = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('text'), text }),
    z.object({
      type: z.literal('image_url'),
      image_url: z.object({ url: text, detail: z.enum(['auto', 'low', 'high']).optional() }),
    }),
  ],
  { error: 'a content part must have type "text" or "image_url"' },
);
const content = z.union([text, z.array(part).max(MAX_PARTS, `more than ${MAX_PARTS} content parts`)], {
  error: 'content must be a string or an array of content parts',
});
const functionCall = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});
// A custom tool's call, sent back with the history: the model gets the call of the function standing in for it.
const customCall = z
  .object({ id: z.string(), type: z.literal('custom'), custom: z.object({ name: z.string(), input: z.string() }) })
  .transform(({ id, custom }) => ({
    id,
    type: 'function' as const,
    function: { name: custom.name, arguments: customArguments(custom.input) },
  }));
const toolCall = z.discriminatedUnion('type', [functionCall, customCall], { error: 'a tool call must have type "function" or "custom"' });
const message = z.discriminatedUnion(
  'role',
  [
    z.object({ role: z.enum(['system', 'developer', 'user']), content }),
    z.object({ role: z.literal('assistant'), content: content.nullable().optional(), tool_calls: z.array(toolCall).optional() }),
    z.object({ role: z.literal('tool'), content, tool_call_id: z.string() }),
  ],
  { error: 'a message must be an object with role system, developer, user, assistant or tool' },
);

const functionTool = z
  .object({
    type: z.literal('function'),
    function: z.object({
      name: functionName,
      description: z.string({ error: 'description must be a string' }).max(MAX_TEXT_CHARS).optional(),
      parameters: jsonSchema.optional(),
      strict: z.boolean({ error: 'strict must be a boolean' }).nullable().optional(),
    }),
  })
  .superRefine(
    boundSchema(
      ['function', 'parameters'],
      (tool) => tool.function.parameters,
      (tool) => `the parameters schema of tool '${tool.function.name}'`,
    ),
  );
const customTool = z.object({
  type: z.literal('custom'),
  custom: z.object({
    name: functionName,
    description: z.string({ error: 'description must be a string' }).max(MAX_TEXT_CHARS).optional(),
    format: z
      .discriminatedUnion(
        'type',
        [
          z.object({ type: z.literal('text') }),
          z.object({
            type: z.literal('grammar'),
            grammar: z.object({ syntax: z.enum(['lark', 'regex']), definition: z.string().max(MAX_TEXT_CHARS) }),
          }),
        ],
        { error: 'format must have type "text" or "grammar"' },
      )
      .optional(),
  }),
});
const clientTool = z.discriminatedUnion('type', [functionTool, customTool], { error: 'a tool must have type "function" or "custom"' });
const toolName = z.object({ name: z.string({ error: 'the tool name must be a string' }) });
const toolChoice = z.union(
  [
    z.enum(['auto', 'none', 'required']),
    z.object({ type: z.literal('function'), function: toolName }),
    // A custom tool is chosen as the function standing in for it.
    z
      .object({ type: z.literal('custom'), custom: toolName })
      .transform(({ custom }) => ({ type: 'function' as const, function: { name: custom.name } })),
  ],
  {
    error:
      'tool_choice must be "auto", "none", "required", {"type": "function", "function": {"name": ...}} or {"type": "custom", "custom": {"name": ...}}',
  },
);
const responseFormat = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('text') }),
    z.object({ type: z.literal('json_object') }),
    z
      .object({
        type: z.literal('json_schema'),
        json_schema: z.object({
          name: functionName,
          description: z.string().max(MAX_TEXT_CHARS).optional(),
          schema: jsonSchema.optional(),
          strict: z.boolean().nullable().optional(),
        }),
      })
      .superRefine(
        boundSchema(
          ['json_schema', 'schema'],
          (format) => format.json_schema.schema,
          (format) => `the schema of response format '${format.json_schema.name}'`,
        ),
      ),
  ],
  { error: 'response_format must have type "text", "json_object" or "json_schema"' },
);

export const chatCompletionRequestSchema = z.object({
  ...modelOptionFields,
  tools: z.array(clientTool, { error: 'tools must be an array of tools' }).max(128, 'more than 128 tools').nullable().optional(),
  tool_choice: toolChoice.nullable().optional(),
  parallel_tool_calls: z.boolean({ error: 'parallel_tool_calls must be a boolean' }).nullable().optional(),
  response_format: responseFormat.nullable().optional(),
  model: z.string().min(1).max(256).optional(),
  messages: z
    .array(message, { error: 'messages must be a non-empty array of messages' })
    .min(1, 'messages must be a non-empty array of messages')
    .max(MAX_MESSAGES, `more than ${MAX_MESSAGES} messages`),
  stream: z.boolean({ error: 'stream must be a boolean' }).nullable().optional(),
  stream_options: z
    .looseObject({
      include_usage: z.boolean({ error: 'include_usage must be a boolean' }).optional(),
      include_tool_progress: z.boolean({ error: 'include_tool_progress must be a boolean' }).optional(),
    })
    .nullable()
    .optional(),
});

export interface ChatCompletionRequest {
  readonly model: string | undefined;
  readonly messages: readonly ChatMessage[];
  readonly stream: boolean;
  readonly includeUsage: boolean;
  /** rxgate's extension: tool starts and ends as chunks with an `rxgate_tool` field. */
  readonly includeToolProgress: boolean;
  readonly clientTools: readonly ClientTool[];
  /** The names of the client's custom tools: their calls reach it as `custom` tool calls with the free-form `input`. */
  readonly customTools: ReadonlySet<string>;
  readonly toolChoice: ToolChoice | undefined;
  readonly parallelToolCalls: boolean | undefined;
  /** The options to forward to the model, only those the client set. */
  readonly options: ModelOptions;
}

function toClientTool(tool: z.output<typeof clientTool>): ClientTool {
  if (tool.type === 'function') return tool;
  const { name, description, format } = tool.custom;
  return customToolOffer(name, description, format?.type === 'grammar' ? format.grammar : undefined);
}

function parseWithSchema(body: Record<string, unknown>): z.output<typeof chatCompletionRequestSchema> {
  const parsed = chatCompletionRequestSchema.safeParse(body);
  if (!parsed.success) throw invalidRequest(parsed.error, body);
  return parsed.data;
}

/**
 * Checks a parsed JSON body; anything wrong becomes a 400 that names the offending path, and a
 * field rxgate cannot honour a 400 `unsupported_parameter` naming it. Fields OpenAI's API does not
 * have are ignored, as OpenAI-compatible servers ignore them: frontends add their own.
 */
export function parseChatCompletionRequest(body: unknown): ChatCompletionRequest {
  assertObjectBody(body);
  const unsupported = findUnsupportedChatParameter(body);
  if (unsupported) throw unsupportedParameter(unsupported.param, unsupported.why);
  const data: z.output<typeof chatCompletionRequestSchema> =
    readPlainChatRequest(body, { maxTextChars: MAX_TEXT_CHARS, maxMessages: MAX_MESSAGES }) ?? parseWithSchema(body);
  const { model, messages, stream, stream_options, tools, tool_choice, parallel_tool_calls, ...options } = data;
  if (!messages.some((m) => m.role === 'user' && hasText(m.content))) {
    throw new RequestError(
      400,
      'messages must contain at least one user message with content',
      'invalid_request_error',
      'messages',
      'invalid_value',
    );
  }
  return {
    model,
    messages: messages as ChatMessage[],
    stream: stream ?? false,
    includeUsage: stream_options?.include_usage ?? false,
    includeToolProgress: stream_options?.include_tool_progress ?? false,
    clientTools: (tools ?? []).map(toClientTool),
    customTools: new Set((tools ?? []).flatMap((tool) => (tool.type === 'custom' ? [tool.custom.name] : []))),
    toolChoice: tool_choice ?? undefined,
    parallelToolCalls: parallel_tool_calls ?? undefined,
    options: definedFields(options) as ModelOptions,
  };
}
