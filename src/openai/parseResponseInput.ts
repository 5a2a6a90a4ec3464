import { z } from 'zod';
import { executedToolItems } from './executedToolCalls.js';
import { MAX_MESSAGES, MAX_PARTS, MAX_TEXT_CHARS } from './limits.js';
import { RequestError } from '../errors/RequestError.js';
import { invalidRequest } from '../errors/invalidRequest.js';
import { unsupportedParameter } from '../errors/unsupportedParameter.js';

const text = z.string().max(MAX_TEXT_CHARS, `text longer than ${MAX_TEXT_CHARS} characters`);
const callId = z.string({ error: 'call_id must be a string' }).min(1, 'call_id must not be empty').max(256);
const toolName = z.string({ error: 'name must be a string' }).min(1).max(256);
const inputText = z.object({ type: z.literal('input_text'), text });
const inputImage = z.object({
  type: z.literal('input_image'),
  image_url: text,
  detail: z.enum(['auto', 'low', 'high']).nullable().optional(),
});
const part = z.discriminatedUnion(
  'type',
  [inputText, z.object({ type: z.literal('output_text'), text }), z.object({ type: z.literal('refusal'), refusal: text }), inputImage],
  { error: 'a content part must have type "input_text", "output_text", "refusal" or "input_image"' },
);
const message = z.object({
  type: z.literal('message'),
  role: z.enum(['user', 'assistant', 'system', 'developer'], { error: 'role must be user, assistant, system or developer' }),
  content: z.union([text, z.array(part).max(MAX_PARTS, `more than ${MAX_PARTS} content parts`)], {
    error: 'content must be a string or an array of content parts',
  }),
});
const functionCall = z.object({
  type: z.literal('function_call'),
  call_id: callId,
  name: toolName,
  arguments: z.string({ error: 'arguments must be a JSON string' }).max(MAX_TEXT_CHARS),
  namespace: toolName.optional(),
});
const callOutput = z.union([text, z.array(z.discriminatedUnion('type', [inputText])).max(MAX_PARTS)], {
  error: 'output must be a string or an array of input_text parts',
});
const functionCallOutput = z.object({ type: z.literal('function_call_output'), call_id: callId, output: callOutput });
const customToolCall = z.object({
  type: z.literal('custom_tool_call'),
  call_id: callId,
  name: toolName,
  input: z.string({ error: 'input must be a string' }).max(MAX_TEXT_CHARS),
  namespace: toolName.optional(),
});
const customToolCallOutput = z.object({ type: z.literal('custom_tool_call_output'), call_id: callId, output: callOutput });
const approvalResponse = z.object({
  type: z.literal('mcp_approval_response'),
  approval_request_id: z.string({ error: 'approval_request_id must be a string' }).min(1).max(256),
  approve: z.boolean({ error: 'approve must be a boolean' }),
  reason: text.nullable().optional(),
});
const itemReference = z.object({ type: z.literal('item_reference'), id: z.string({ error: 'id must be a string' }).min(1).max(256) });

/**
 * An input item rxgate accepts: a message, a client tool call (a function's, a custom tool's, a client-executed tool's) and its output, a person's answer to
 * an approval request, a reference to an earlier item, or an item that tells the model nothing new
 * (the reasoning of an earlier answer, a call of the agent's own tools, hosted or not, or a request for approval,
 * which clients send back with the history).
 */
const item = z.discriminatedUnion(
  'type',
  [
    message,
    functionCall,
    functionCallOutput,
    customToolCall,
    customToolCallOutput,
    ...executedToolItems,
    itemReference,
    approvalResponse,
    z.object({ type: z.literal('reasoning') }),
    z.object({ type: z.literal('mcp_call') }),
    z.object({ type: z.literal('web_search_call') }),
    z.object({ type: z.literal('file_search_call') }),
    z.object({ type: z.literal('mcp_approval_request') }),
  ],
  {
    error:
      'an input item must have type message, function_call, function_call_output, custom_tool_call, custom_tool_call_output, local_shell_call, local_shell_call_output, shell_call, shell_call_output, apply_patch_call, apply_patch_call_output, mcp_approval_response, item_reference, reasoning, mcp_call, web_search_call, file_search_call or mcp_approval_request',
  },
);

export type InputItem = z.output<typeof item>;
export type MessageInput = z.output<typeof message>;

const items = z.array(item).min(1, 'input must not be empty').max(MAX_MESSAGES, `more than ${MAX_MESSAGES} input items`);

/** Input item types of OpenAI's API that belong to tools rxgate does not have. */
const REFUSED_ITEM_TYPES = new Set([
  'computer_call',
  'computer_call_output',
  'image_generation_call',
  'code_interpreter_call',
  'mcp_list_tools',
  'tool_search_call',
  'tool_search_output',
  'compaction',
]);
const REFUSED_PART_TYPES = new Set(['input_file', 'input_audio']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An item's type, with OpenAI's defaults: an item with a role is a message, one with only an id a reference. */
function withType(raw: unknown): unknown {
  if (!isObject(raw) || raw.type !== undefined) return raw;
  return { ...raw, type: 'role' in raw ? 'message' : 'id' in raw ? 'item_reference' : undefined };
}

function refuseUnsupported(raw: readonly unknown[], field: string): void {
  for (const [index, entry] of raw.entries()) {
    if (!isObject(entry)) continue;
    if (typeof entry.type === 'string' && REFUSED_ITEM_TYPES.has(entry.type)) {
      throw unsupportedParameter(`${field}[${index}].type`, `rxgate has no tool that makes or reads '${entry.type}' items`);
    }
    const parts = Array.isArray(entry.content) ? entry.content : Array.isArray(entry.output) ? entry.output : [];
    const partsField = Array.isArray(entry.content) ? 'content' : 'output';
    for (const [partIndex, part] of parts.entries()) {
      if (!isObject(part)) continue;
      const at = `${field}[${index}].${partsField}[${partIndex}]`;
      if (typeof part.type === 'string' && REFUSED_PART_TYPES.has(part.type)) {
        throw unsupportedParameter(`${at}.type`, `rxgate forwards text and image parts only, not '${part.type}'`);
      }
      if (part.type === 'input_image' && part.file_id != null && part.image_url == null) {
        throw unsupportedParameter(`${at}.file_id`, 'rxgate has no Files API; send the image as image_url (a URL or a data: URL)');
      }
    }
  }
}

/**
 * The Responses API `input`: a string (one user message) or input items, checked one by one; an
 * item or part of a kind rxgate cannot forward is a 400 `unsupported_parameter` naming it (under
 * `field`, the body's field that holds them. Default: `input`).
 */
export function parseResponseInput(input: string | readonly unknown[], body: unknown, field = 'input'): InputItem[] {
  if (typeof input === 'string') {
    if (input.trim() === '') {
      throw new RequestError(400, `invalid '${field}': ${field} must not be empty`, 'invalid_request_error', field, 'invalid_value');
    }
    return [{ type: 'message', role: 'user', content: input }];
  }
  refuseUnsupported(input, field);
  const parsed = items.safeParse(input.map(withType));
  if (!parsed.success) throw invalidRequest(parsed.error, body, [field]);
  return parsed.data;
}

/** Parses an item rxgate stored (an output item, or an input item as it lists them) as an input item. */
export function parseStoredItem(raw: unknown): InputItem | undefined {
  const parsed = item.safeParse(withType(raw));
  return parsed.success ? parsed.data : undefined;
}
