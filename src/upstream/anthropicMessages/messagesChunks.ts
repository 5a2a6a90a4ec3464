import type { Observable } from 'rxjs';
import { openUpstream } from '../openaiChat/openUpstream.js';
import { streamChunks, type StreamChunksOptions } from '../openaiChat/streamChunks.js';
import type { UpstreamChunk } from '../upstreamChunk.js';
import type { UpstreamPost } from '../UpstreamPost.js';
import { messagesHeaders } from './messagesHeaders.js';
import { MessagesEventReader } from './MessagesEventReader.js';
import { toMessagesRequest } from './toMessagesRequest.js';

/**
 * One model call to an `anthropic` upstream as the same cold stream of chat chunks that
 * `upstreamChunks` gives: the post's chat completions body is sent as a Messages request
 * (`toMessagesRequest`) with `x-api-key` and `anthropic-version`, and the answer's events read
 * by `MessagesEventReader`, `message_stop` completing. Errors (an HTTP status, Anthropic's
 * envelope, an `error` event, a body cut before `message_stop` or a stop reason) are the
 * `UpstreamError`s of the openai kind, and an unsubscription aborts the request just the same.
 *
 * ```
 * upstream:  --(message_start)--(text_delta)--(message_delta)--(message_stop)
 * result:    --i----------------t-------------f----------------|          i = id and model
 * ```
 */
export function messagesChunks(post: UpstreamPost, options: StreamChunksOptions = {}): Observable<UpstreamChunk> {
  const body = toMessagesRequest(post.body as Readonly<Record<string, unknown>>, post.maxOutputTokens);
  return streamChunks(
    { ...post, body },
    {
      open: (request) => openUpstream(request, messagesHeaders),
      reader: (status) => new MessagesEventReader(status, post.apiKey),
      lacking: 'no stop_reason and no message_stop',
    },
    options,
  );
}
