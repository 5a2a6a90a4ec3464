import type { EventSourceMessage } from 'eventsource-parser';
import { UpstreamError } from '../../errors/UpstreamError.js';
import { redactThenCut } from '../../errors/redactSecrets.js';
import type { UpstreamChunk } from '../upstreamChunk.js';
import type { EventReader } from './EventReader.js';
import { readUpstreamChunk } from './readUpstreamChunk.js';
import { TextFrameTemplate } from './TextFrameTemplate.js';

/**
 * The events of a chat completions stream: each data frame a `chat.completion.chunk`, `[DONE]`
 * the end, an `{"error": ...}` frame a failure. A frame that repeats the last text frame byte for
 * byte but for its text (and OpenAI's padding) is read without parsing (`TextFrameTemplate`); the
 * first chunk carries the response's `id` and `model`.
 */
export class ChatEventReader implements EventReader {
  done = false;
  finished = false;
  readonly #template = new TextFrameTemplate();
  #first = true;

  constructor(
    private readonly status: number,
    private readonly apiKey: string | undefined,
  ) {}

  read({ data }: EventSourceMessage): UpstreamChunk | UpstreamError | undefined {
    const { status, apiKey } = this;
    const templated = this.#template.read(data);
    if (templated) return templated;
    if (data.trim() === '[DONE]') {
      this.done = true;
      return undefined;
    }
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return new UpstreamError('malformed_frame', `sent a frame that is not JSON: ${redactThenCut(data, [apiKey], 200)}`, status);
    }
    const error = (json as { error?: unknown } | null)?.error;
    if (error !== undefined && error !== null) {
      const detail = typeof error === 'string' ? error : ((error as { message?: unknown }).message ?? JSON.stringify(error));
      return new UpstreamError('upstream_error', `failed mid-stream: ${redactThenCut(String(detail), [apiKey], 300)}`, status);
    }
    const read = readUpstreamChunk(json);
    if ('problem' in read) {
      const { problem } = read;
      return new UpstreamError(
        'malformed_frame',
        `sent a chunk rxgate cannot read (${problem}): ${redactThenCut(data, [apiKey], 200)}`,
        status,
      );
    }
    let { chunk } = read;
    this.#template.learn(data, chunk);
    if (this.#first) {
      this.#first = false;
      const { id, model } = json as Record<string, unknown>;
      chunk = { id: typeof id === 'string' ? id : undefined, model: typeof model === 'string' ? model : undefined, ...chunk };
    }
    if (chunk.choices?.some((choice) => choice.finish_reason)) this.finished = true;
    return chunk;
  }
}
