import type { EventSourceMessage } from 'eventsource-parser';
import { UpstreamError } from '../../errors/UpstreamError.js';
import { redactThenCut } from '../../errors/redactSecrets.js';
import type { EventReader } from '../openaiChat/EventReader.js';
import type { UpstreamChunk } from '../upstreamChunk.js';
import { isRecord } from '../../wire/isRecord.js';
import { toFinishReason } from './toFinishReason.js';

const tokens = (value: unknown): number => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0);

/**
 * The events of a Messages stream as the chat chunks rxgate reads: `message_start` gives the
 * response's `id` and `model` and the input tokens; a `text` block's deltas are `content`, a
 * `thinking` block's `reasoning_content`; a `tool_use` block is one tool call, its start the
 * call's first fragment (`index`, `id`, `name`) and its `input_json_delta`s the arguments, the n-th
 * tool block of the answer index n; `message_delta` is the finish reason (`toFinishReason`) and the
 * usage (input tokens with the cache's, `cache_read_input_tokens` as `cached_tokens`,
 * `cache_creation_input_tokens` as `cache_write_tokens`, the output
 * tokens); `message_stop` the end; an `error` event a failure. `ping`, `signature_delta`,
 * `content_block_stop`, other blocks (`redacted_thinking`, server tools) and unknown events say
 * nothing a chat chunk carries.
 */
export class MessagesEventReader implements EventReader {
  done = false;
  finished = false;
  /** Each tool block's call index, by block index. */
  readonly #calls = new Map<number, number>();
  /** The input tokens of `message_start`: with the cache's, as OpenAI counts `prompt_tokens`. */
  #input = 0;
  #cached = 0;
  #cacheWrite = 0;

  constructor(
    private readonly status: number,
    private readonly apiKey: string | undefined,
  ) {}

  read({ data }: EventSourceMessage): UpstreamChunk | UpstreamError | undefined {
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return new UpstreamError('malformed_frame', `sent an event that is not JSON: ${this.cut(data, 200)}`, this.status);
    }
    if (!isRecord(json))
      return new UpstreamError('malformed_frame', `sent an event that is not an object: ${this.cut(data, 200)}`, this.status);
    switch (json.type) {
      case 'message_start':
        return this.start(json.message);
      case 'content_block_start':
        return this.blockStart(json.index, json.content_block);
      case 'content_block_delta':
        return this.blockDelta(json.index, json.delta);
      case 'message_delta':
        return this.messageDelta(json.delta, json.usage);
      case 'message_stop':
        this.done = true;
        return undefined;
      case 'error': {
        const error = isRecord(json.error) ? json.error : {};
        const detail = `${typeof error.type === 'string' ? `${error.type}: ` : ''}${typeof error.message === 'string' ? error.message : data}`;
        return new UpstreamError('upstream_error', `failed mid-stream: ${this.cut(detail, 300)}`, this.status, {
          upstreamCode: typeof error.type === 'string' ? error.type : undefined,
        });
      }
      default:
        return undefined;
    }
  }

  private cut(text: string, length: number): string {
    return redactThenCut(text, [this.apiKey], length);
  }

  private start(message: unknown): UpstreamChunk | undefined {
    if (!isRecord(message)) return undefined;
    const usage = isRecord(message.usage) ? message.usage : {};
    this.#cached = tokens(usage.cache_read_input_tokens);
    this.#cacheWrite = tokens(usage.cache_creation_input_tokens);
    this.#input = tokens(usage.input_tokens) + this.#cached + this.#cacheWrite;
    const { id, model } = message;
    return { id: typeof id === 'string' ? id : undefined, model: typeof model === 'string' ? model : undefined };
  }

  private blockStart(index: unknown, block: unknown): UpstreamChunk | undefined {
    if (!isRecord(block) || typeof index !== 'number') return undefined;
    if (block.type === 'text') return text(block.text);
    if (block.type === 'thinking') return reasoning(block.thinking);
    if (block.type !== 'tool_use' || typeof block.id !== 'string' || typeof block.name !== 'string') return undefined;
    const call = this.#calls.size;
    this.#calls.set(index, call);
    return {
      choices: [
        { delta: { tool_calls: [{ index: call, id: block.id, type: 'function', function: { name: block.name, arguments: '' } }] } },
      ],
    };
  }

  private blockDelta(index: unknown, delta: unknown): UpstreamChunk | undefined {
    if (!isRecord(delta)) return undefined;
    if (delta.type === 'text_delta') return text(delta.text);
    if (delta.type === 'thinking_delta') return reasoning(delta.thinking);
    if (delta.type !== 'input_json_delta' || typeof delta.partial_json !== 'string' || delta.partial_json === '') return undefined;
    const call = typeof index === 'number' ? this.#calls.get(index) : undefined;
    if (call === undefined) return undefined;
    return { choices: [{ delta: { tool_calls: [{ index: call, function: { arguments: delta.partial_json } }] } }] };
  }

  private messageDelta(delta: unknown, usage: unknown): UpstreamChunk | undefined {
    const stopReason = isRecord(delta) && typeof delta.stop_reason === 'string' ? delta.stop_reason : undefined;
    if (stopReason !== undefined) this.finished = true;
    const output = isRecord(usage) ? tokens(usage.output_tokens) : 0;
    return {
      choices: stopReason === undefined ? [] : [{ finish_reason: toFinishReason(stopReason) }],
      usage: {
        prompt_tokens: this.#input,
        completion_tokens: output,
        total_tokens: this.#input + output,
        prompt_tokens_details: { cached_tokens: this.#cached, cache_write_tokens: this.#cacheWrite },
      },
    };
  }
}

const text = (content: unknown): UpstreamChunk | undefined =>
  typeof content === 'string' && content !== '' ? { choices: [{ delta: { content } }] } : undefined;

const reasoning = (content: unknown): UpstreamChunk | undefined =>
  typeof content === 'string' && content !== '' ? { choices: [{ delta: { reasoning_content: content } }] } : undefined;
