import { z } from 'zod';
import { boundSchema } from '../openai/boundSchema.js';
import { MAX_MESSAGES, MAX_PARTS } from '../openai/limits.js';
import { functionName, jsonSchema } from '../openai/modelOptionFields.js';

// No bound of their own on texts: a tool result is a whole file, Claude Code's system prompt tens of
// thousands of characters; the request body's limit (RXGATE_MAX_BODY_BYTES) bounds them all.
const text = z.string({ error: 'text must be a string' });

/** `cache_control` and fields newer clients add to a block are accepted; none of them changes what the model reads. */
const textBlock = z.looseObject({ type: z.literal('text'), text });
const imageBlock = z.looseObject({
  type: z.literal('image'),
  source: z.discriminatedUnion(
    'type',
    [
      z.looseObject({ type: z.literal('base64'), media_type: z.string(), data: z.string() }),
      z.looseObject({ type: z.literal('url'), url: z.string() }),
    ],
    { error: 'an image source must have type "base64" or "url"' },
  ),
});
const toolUseBlock = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string({ error: 'a tool_use block needs its id' }),
  name: z.string({ error: 'a tool_use block needs its name' }),
  input: z.unknown(),
});
const toolResultBlock = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string({ error: 'a tool_result block needs the tool_use_id it answers' }),
  content: z
    .union([
      text,
      z.array(z.discriminatedUnion('type', [textBlock, imageBlock], { error: 'tool_result content blocks must be text or image' })),
    ])
    .optional(),
  is_error: z.boolean({ error: 'is_error must be a boolean' }).optional(),
});
const thinkingBlock = z.looseObject({ type: z.literal('thinking'), thinking: text, signature: z.string().optional() });
const redactedThinkingBlock = z.looseObject({ type: z.literal('redacted_thinking'), data: z.string() });

const block = z.discriminatedUnion('type', [textBlock, imageBlock, toolUseBlock, toolResultBlock, thinkingBlock, redactedThinkingBlock], {
  error: 'a content block must have type text, image, tool_use, tool_result, thinking or redacted_thinking',
});
export type MessagesBlock = z.output<typeof block>;

const content = z.union([text, z.array(block).max(MAX_PARTS, `more than ${MAX_PARTS} content blocks`)], {
  error: 'content must be a string or an array of content blocks',
});
const message = z.object({
  role: z.enum(['user', 'assistant', 'system'], { error: 'role must be user, assistant or system' }),
  content,
});
export type MessagesMessage = z.output<typeof message>;

const system = z.union([text, z.array(textBlock)], { error: 'system must be a string or an array of text blocks' });

const tool = z
  .looseObject({
    type: z.literal('custom', { error: "a tool rxgate can offer is a custom tool (no type, or type 'custom')" }).optional(),
    name: functionName,
    description: z.string({ error: 'description must be a string' }).optional(),
    input_schema: jsonSchema,
  })
  .superRefine(
    boundSchema(
      ['input_schema'],
      (tool) => tool.input_schema,
      (tool) => `the input schema of tool '${tool.name}'`,
    ),
  );

const parallel = { disable_parallel_tool_use: z.boolean({ error: 'disable_parallel_tool_use must be a boolean' }).optional() };
const toolChoice = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('auto'), ...parallel }),
    z.object({ type: z.literal('any'), ...parallel }),
    z.object({ type: z.literal('tool'), name: z.string({ error: 'tool_choice names its tool' }), ...parallel }),
    z.object({ type: z.literal('none') }),
  ],
  { error: 'tool_choice must have type auto, any, tool or none' },
);

const thinking = z.discriminatedUnion(
  'type',
  [
    z.looseObject({ type: z.literal('enabled'), budget_tokens: z.number().int().min(1) }),
    z.looseObject({ type: z.literal('adaptive') }),
    z.looseObject({ type: z.literal('disabled') }),
  ],
  { error: 'thinking must have type enabled (with budget_tokens), adaptive or disabled' },
);

const outputConfig = z.looseObject({
  effort: z.enum(['low', 'medium', 'high', 'max'], { error: 'effort must be low, medium, high or max' }).optional(),
  format: z
    .looseObject({ type: z.literal('json_schema', { error: 'output_config.format must have type json_schema' }), schema: jsonSchema })
    .superRefine(
      boundSchema(
        ['schema'],
        (format) => format.schema,
        () => 'the output schema',
      ),
    )
    .nullable()
    .optional(),
});

/** The fields of Anthropic's Messages request rxgate reads; any other top-level field is dropped (`messagesRequest`). */
export const messagesRequestShape = {
  model: z.string({ error: 'model must be a string' }).min(1).max(256),
  max_tokens: z
    .number({ error: 'max_tokens must be an integer' })
    .int('max_tokens must be an integer')
    .min(1, 'max_tokens must be at least 1'),
  messages: z
    .array(message, { error: 'messages must be a non-empty array of messages' })
    .min(1, 'messages must be a non-empty array of messages')
    .max(MAX_MESSAGES, `more than ${MAX_MESSAGES} messages`),
  system: system.optional(),
  tools: z.array(tool, { error: 'tools must be an array of tools' }).max(128, 'more than 128 tools').optional(),
  tool_choice: toolChoice.optional(),
  thinking: thinking.optional(),
  output_config: outputConfig.optional(),
  stop_sequences: z
    .array(z.string(), { error: 'stop_sequences must be an array of strings' })
    .max(4, 'at most 4 stop_sequences')
    .optional(),
  temperature: z.number({ error: 'temperature must be a number' }).min(0).max(1).optional(),
  top_p: z.number({ error: 'top_p must be a number' }).min(0).max(1).optional(),
  top_k: z.number({ error: 'top_k must be an integer' }).int().min(0).optional(),
  metadata: z.looseObject({ user_id: z.string({ error: 'metadata.user_id must be a string' }).max(256).nullable().optional() }).optional(),
  stream: z.boolean({ error: 'stream must be a boolean' }).optional(),
};

export const messagesRequestSchema = z.object(messagesRequestShape);
/** `count_tokens` reads the same body; it needs no `max_tokens`. */
export const countTokensRequestSchema = messagesRequestSchema.extend({ max_tokens: messagesRequestShape.max_tokens.optional() });
export type MessagesRequestBody = z.output<typeof countTokensRequestSchema>;
