import type { Observable } from 'rxjs';
import type { UpstreamChunk } from '../upstreamChunk.js';
import type { UpstreamPost } from '../UpstreamPost.js';
import { ChatEventReader } from './ChatEventReader.js';
import { openUpstream } from './openUpstream.js';
import { streamChunks, type StreamChunksOptions } from './streamChunks.js';

export type UpstreamChunksOptions = StreamChunksOptions;

/**
 * One upstream chat completion as a cold stream of its chunks: subscribing POSTs, each SSE data
 * frame is one value, `[DONE]` completes. Unsubscribing aborts the request, and so does an abort
 * of `post.signal`; an abort is never reported as an error (nobody is listening any more).
 * Failures are `UpstreamError`s: an `{"error": ...}` frame; a `malformed_frame` for a frame that
 * is not JSON, a chunk that does not match `upstreamChunkSchema`, or an event longer than
 * `maxFrameBytes`; and a body that ends before `[DONE]` or a `finish_reason`. A frame that repeats
 * the last text frame byte for byte but for its text (and OpenAI's padding) is read without parsing
 * (`TextFrameTemplate`).
 *
 * ```
 * upstream:  --c--c--c--[DONE]
 * result:    --c--c--c--|
 * ```
 */
export function upstreamChunks(post: UpstreamPost, options: UpstreamChunksOptions = {}): Observable<UpstreamChunk> {
  return streamChunks(
    post,
    { open: openUpstream, reader: (status) => new ChatEventReader(status, post.apiKey), lacking: 'no finish_reason and no [DONE]' },
    options,
  );
}
