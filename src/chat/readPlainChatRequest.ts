import { isRecord } from '../wire/isRecord.js';

/** What `chatCompletionRequestSchema` makes of a request of the plain shape. */
export interface PlainChatRequest {
  readonly model?: string;
  readonly messages: Message[];
  readonly stream?: boolean | null;
  readonly stream_options?: { readonly include_usage?: boolean; readonly include_tool_progress?: boolean } | null;
}

interface Message {
  readonly role: 'system' | 'developer' | 'user' | 'assistant';
  readonly content: string;
}

const PLAIN_FIELDS = new Set(['model', 'messages', 'stream', 'stream_options']);
const PLAIN_ROLES = new Set(['system', 'developer', 'user', 'assistant']);

const isFlag = (value: unknown): value is boolean | null | undefined => value == null || typeof value === 'boolean';
const isOptionalFlag = (value: unknown): value is boolean | undefined => value === undefined || typeof value === 'boolean';

function readPlainMessage(message: unknown, maxTextChars: number): Message | undefined {
  if (!isRecord(message)) return undefined;
  const { role, content } = message;
  if (typeof role !== 'string' || !PLAIN_ROLES.has(role) || typeof content !== 'string' || content.length > maxTextChars) return undefined;
  for (const key in message) if (key !== 'role' && key !== 'content') return undefined;
  return { role, content } as Message;
}

/**
 * The request as `chatCompletionRequestSchema` reads it, for the shape nearly every request has
 * (text messages without tools, `model`, `stream`, `stream_options`), checked by hand: the schema
 * cost a tenth of the latency rxgate adds. Anything else (tools, parts, model options, a field of
 * the wrong type) is left to the schema, which also words every error.
 */
export function readPlainChatRequest(
  body: Record<string, unknown>,
  limits: { readonly maxTextChars: number; readonly maxMessages: number },
): PlainChatRequest | undefined {
  for (const key in body) if (!PLAIN_FIELDS.has(key)) return undefined;
  const { model, messages, stream, stream_options } = body;
  if (model !== undefined && (typeof model !== 'string' || model.length < 1 || model.length > 256)) return undefined;
  if (!isFlag(stream) || !Array.isArray(messages) || messages.length < 1 || messages.length > limits.maxMessages) return undefined;
  if (stream_options != null) {
    if (
      !isRecord(stream_options) ||
      !isOptionalFlag(stream_options.include_usage) ||
      !isOptionalFlag(stream_options.include_tool_progress)
    ) {
      return undefined;
    }
  }
  const read: Message[] = [];
  for (const message of messages as unknown[]) {
    const plain = readPlainMessage(message, limits.maxTextChars);
    if (!plain) return undefined;
    read.push(plain);
  }
  return { model, messages: read, stream, stream_options } as PlainChatRequest;
}
