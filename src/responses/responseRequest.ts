import { z } from 'zod';
import { MAPPABLE_HOSTED_TOOLS } from '../config.js';
import type { ClientTool, ModelOptions, ResponseFormat, ToolChoice } from '../agent/agent.js';
import { boundSchema } from '../openai/boundSchema.js';
import { MAX_TEXT_CHARS } from '../openai/limits.js';
import {
  definedFields,
  functionName,
  jsonSchema,
  metadata,
  modelOptionFields,
  reasoningEffort,
  verbosity,
} from '../openai/modelOptionFields.js';
import { RequestError } from '../errors/RequestError.js';
import { assertObjectBody, invalidRequest } from '../errors/invalidRequest.js';
import { unsupportedParameter } from '../errors/unsupportedParameter.js';
import { turnFields } from '../openai/parseInput.js';
import { parseResponseInput, type InputItem } from '../openai/parseResponseInput.js';
import type { HostedCallItem, ResponseEcho, ResponseTextFormat, ResponseTool, ResponseToolChoice } from '../openai/responseObject.js';
import { placeResponseTools, refuseUnplacedTools, responseToolsSchema } from './responseTools.js';
import type { HostedToolPlacement } from './hostedToolPlacement.js';

const flag = (name: string) =>
  z
    .boolean({ error: `${name} must be a boolean` })
    .nullable()
    .optional();

const toolChoice = z.union(
  [
    z.enum(['auto', 'none', 'required']),
    z.object({ type: z.enum(['function', 'custom']), name: z.string({ error: 'name must be a string' }) }),
    // A hosted tool a server tool stands in for (RXGATE_HOSTED_TOOLS_MAP); any other is refused before.
    z.object({ type: z.enum(MAPPABLE_HOSTED_TOOLS) }),
  ],
  { error: 'tool_choice must be "auto", "none", "required" or {"type": "function" or "custom", "name": ...}' },
);
const textFormat = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('text') }),
    z.object({ type: z.literal('json_object') }),
    z
      .object({
        type: z.literal('json_schema'),
        name: functionName,
        schema: jsonSchema,
        description: z.string().max(MAX_TEXT_CHARS).optional(),
        strict: z.boolean().nullable().optional(),
      })
      .superRefine(
        boundSchema(
          ['schema'],
          (format) => format.schema,
          (format) => `the schema of text format '${format.name}'`,
        ),
      ),
  ],
  { error: 'text.format must have type "text", "json_object" or "json_schema"' },
);

/** Codex sends its turn's metadata as one JSON string of about 800 characters. */
const MAX_CLIENT_METADATA_VALUE = 8192;

const conversationId = z.string({ error: 'conversation must be a conversation id or {"id": ...}' }).min(1).max(256);

const responseRequestSchema = z.object({
  ...turnFields,
  previous_response_id: z.string({ error: 'previous_response_id must be a string' }).min(1).max(256).nullable().optional(),
  conversation: z
    .union([conversationId, z.object({ id: conversationId })], { error: 'conversation must be a conversation id or {"id": ...}' })
    .nullable()
    .optional(),
  truncation: z.enum(['auto', 'disabled'], { error: 'truncation must be "auto" or "disabled"' }).nullable().optional(),
  store: flag('store'),
  stream: flag('stream'),
  background: flag('background'),
  tools: responseToolsSchema.nullable().optional(),
  tool_choice: toolChoice.nullable().optional(),
  parallel_tool_calls: flag('parallel_tool_calls'),
  text: z.object({ format: textFormat.nullable().optional(), verbosity }).nullable().optional(),
  reasoning: z
    .object({
      effort: reasoningEffort,
      summary: z.enum(['auto', 'concise', 'detailed']).nullable().optional(),
    })
    .nullable()
    .optional(),
  max_output_tokens: modelOptionFields.max_tokens,
  temperature: modelOptionFields.temperature,
  top_p: modelOptionFields.top_p,
  user: modelOptionFields.user,
  metadata,
  client_metadata: z
    .record(z.string().max(128, 'a client_metadata key must be at most 128 characters'), z.string().max(MAX_CLIENT_METADATA_VALUE), {
      error: 'client_metadata must be an object of strings',
    })
    .refine((pairs) => Object.keys(pairs).length <= 32, 'client_metadata may have at most 32 pairs')
    .nullable()
    .optional(),
  prompt_cache_key: z.string({ error: 'prompt_cache_key must be a string' }).max(1024).nullable().optional(),
  prompt_cache_retention: z
    .enum(['in_memory', '24h'], { error: 'prompt_cache_retention must be "in_memory" or "24h"' })
    .nullable()
    .optional(),
});

type Parsed = z.output<typeof responseRequestSchema>;

export interface ResponseRequest {
  readonly model: string | undefined;
  /** This turn's input items, `item_reference`s not yet resolved. */
  readonly input: readonly InputItem[];
  readonly instructions: string | null;
  readonly previousResponseId: string | null;
  /** The id of the conversation this response continues and is appended to. */
  readonly conversation: string | null;
  /** `truncation: "auto"`: the oldest items of the conversation are left out rather than the request refused. */
  readonly truncate: boolean;
  readonly store: boolean;
  readonly stream: boolean;
  readonly background: boolean;
  /** The client's tools, in the Chat Completions shape the agent takes. */
  readonly clientTools: readonly ClientTool[];
  /** The types of the hosted tools left out of the model's offer (`RXGATE_HOSTED_TOOLS=ignore`). */
  readonly ignoredTools: readonly string[];
  /** The server tools standing in for the request's hosted tools (`RXGATE_HOSTED_TOOLS_MAP`): the call item each is reported as. */
  readonly hostedCalls: Readonly<Record<string, HostedCallItem['type']>>;
  readonly toolChoice: ToolChoice | undefined;
  readonly parallelToolCalls: boolean | undefined;
  /** The options to forward to the model, under their Chat Completions names. */
  readonly options: ModelOptions;
  /** What the response object says of this request. */
  readonly echo: ResponseEcho;
}

const isSet = (value: unknown): boolean => value !== undefined && value !== null;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Top-level fields of the Responses API and the values of them that ask for what rxgate cannot do. */
const REFUSED: readonly (readonly [param: string, refuses: (value: unknown) => boolean, why: string])[] = [
  ['top_logprobs', (value) => isSet(value) && value !== 0, 'rxgate does not return log probabilities'],
  [
    'include',
    (value) => Array.isArray(value) && value.includes('message.output_text.logprobs'),
    'rxgate does not return log probabilities',
  ],
  ['prompt', isSet, 'rxgate has no stored prompts; send instructions and input'],
  ['max_tool_calls', isSet, 'rxgate caps the model calls of a run with RXGATE_MAX_TOOL_ITERATIONS, not per request'],
];

function refuseUnsupported(body: Record<string, unknown>, hosted: HostedToolPlacement): void {
  for (const [param, refuses, why] of REFUSED) if (refuses(body[param])) throw unsupportedParameter(param, why);
  const choice = body.tool_choice;
  if (!isObject(choice) || typeof choice.type !== 'string' || choice.type === 'function' || choice.type === 'custom') return;
  if (!hosted.standInFor(choice.type)) {
    throw unsupportedParameter(
      'tool_choice.type',
      `rxgate supports auto, none, required, one function or custom tool, or a hosted tool a server tool stands in for (RXGATE_HOSTED_TOOLS_MAP), not '${choice.type}'`,
    );
  }
}

/** The client's `tool_choice` over the functions the model is offered: a hosted tool's is its stand-in's. */
function toToolChoice(choice: Parsed['tool_choice'], hosted: HostedToolPlacement): ToolChoice | undefined {
  if (typeof choice !== 'object' || !choice) return choice ?? undefined;
  const name = 'name' in choice ? choice.name : hosted.standInFor(choice.type)!.tool;
  return { type: 'function', function: { name } };
}

function toResponseFormat(format: ResponseTextFormat | null | undefined): ResponseFormat | undefined {
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  const { name, schema, description, strict } = format;
  return { type: 'json_schema', json_schema: definedFields({ name, schema, description, strict }) as { name: string } };
}

function toEcho(parsed: Parsed, tools: readonly ResponseTool[]): ResponseEcho {
  const { tool_choice, parallel_tool_calls, text, temperature, top_p, max_output_tokens, reasoning, metadata, client_metadata } = parsed;
  return {
    tools,
    tool_choice: (tool_choice ?? 'auto') as ResponseToolChoice,
    parallel_tool_calls: parallel_tool_calls ?? true,
    text: { format: (text?.format ?? { type: 'text' }) as ResponseTextFormat, ...(text?.verbosity ? { verbosity: text.verbosity } : {}) },
    temperature: temperature ?? null,
    top_p: top_p ?? null,
    max_output_tokens: max_output_tokens ?? null,
    reasoning: { effort: reasoning?.effort ?? null, summary: reasoning?.summary ?? null },
    metadata: metadata ?? {},
    ...(client_metadata ? { client_metadata } : {}),
  };
}

/**
 * Checks a `POST /v1/responses` body; anything wrong is a 400 naming the offending param, and a
 * field rxgate cannot honour a 400 `unsupported_parameter` naming it. Fields the API does not have
 * are ignored, as in Chat Completions. `text.format`, `max_output_tokens` (as `max_tokens`, which
 * every OpenAI-compatible server reads), `temperature`, `top_p`, `reasoning.effort`, `text.verbosity`
 * and `user` go to the model as Chat Completions options.
 */
export function parseResponseRequest(body: unknown, hosted: HostedToolPlacement): ResponseRequest {
  assertObjectBody(body);
  refuseUnsupported(body, hosted);
  refuseUnplacedTools(body.tools, hosted);
  const parsed = responseRequestSchema.safeParse(body);
  if (!parsed.success) throw invalidRequest(parsed.error, body);
  const { model, input, instructions, previous_response_id, store, stream, background, tools, tool_choice, parallel_tool_calls } =
    parsed.data;
  const { conversation, truncation } = parsed.data;
  const { text, reasoning, max_output_tokens, temperature, top_p, user, prompt_cache_key, prompt_cache_retention } = parsed.data;
  const placed = placeResponseTools(tools ?? [], hosted);
  const request: ResponseRequest = {
    model,
    input: parseResponseInput(input, body),
    instructions: instructions ?? null,
    previousResponseId: previous_response_id ?? null,
    conversation: typeof conversation === 'object' && conversation ? conversation.id : (conversation ?? null),
    truncate: truncation === 'auto',
    store: store ?? true,
    stream: stream ?? false,
    background: background ?? false,
    clientTools: placed.clientTools,
    ignoredTools: placed.ignored,
    hostedCalls: placed.hostedCalls,
    toolChoice: toToolChoice(tool_choice, hosted),
    parallelToolCalls: parallel_tool_calls ?? undefined,
    options: definedFields({
      temperature,
      top_p,
      max_tokens: max_output_tokens,
      response_format: toResponseFormat(text?.format as ResponseTextFormat | null | undefined),
      reasoning_effort: reasoning?.effort,
      verbosity: text?.verbosity,
      user,
      prompt_cache_key,
      prompt_cache_retention,
    }) as ModelOptions,
    echo: toEcho(parsed.data, placed.echo),
  };
  if (request.conversation && request.previousResponseId) {
    throw new RequestError(
      400,
      "invalid 'conversation': conversation and previous_response_id cannot be used together; send one of them",
      'invalid_request_error',
      'conversation',
      'invalid_value',
    );
  }
  if (request.truncate && !request.conversation) {
    throw unsupportedParameter('truncation', 'rxgate truncates only a conversation\'s items; send truncation: "auto" with conversation');
  }
  if (request.background && !request.store) {
    throw new RequestError(
      400,
      "invalid 'background': a background response must be stored; drop store: false",
      'invalid_request_error',
      'background',
      'invalid_value',
    );
  }
  return request;
}
