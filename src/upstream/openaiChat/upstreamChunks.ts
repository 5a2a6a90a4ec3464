import { createParser } from 'eventsource-parser';
import { Observable } from 'rxjs';
import { UpstreamError } from '../../errors/UpstreamError.js';
import { createFrameMeter } from '../createFrameMeter.js';
import type { UpstreamPost } from '../UpstreamPost.js';
import { openUpstream } from './openUpstream.js';
import { redactThenCut } from '../../errors/redactSecrets.js';
import { TextFrameTemplate } from './TextFrameTemplate.js';
import { toUpstreamError } from './toUpstreamError.js';
import { readUpstreamChunk } from './readUpstreamChunk.js';
import { RequestAbort } from '../RequestAbort.js';
import { StreamTextDecoder } from './StreamTextDecoder.js';
import type { UpstreamChunk } from '../upstreamChunk.js';

export interface UpstreamChunksOptions {
  /**
   * The most bytes the upstream may send without ending an SSE event (a blank line): past it the
   * call fails with `malformed_frame` instead of buffering an endless line. Default: 1 MiB.
   */
  readonly maxFrameBytes?: number;
}

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
export function upstreamChunks(post: UpstreamPost, { maxFrameBytes = 1_048_576 }: UpstreamChunksOptions = {}): Observable<UpstreamChunk> {
  return new Observable<UpstreamChunk>((subscriber) => {
    // Aborted by an unsubscription or by the run's own signal: a listener, not `AbortSignal.any`,
    // whose composite signal and weak references every open stream would hold.
    const signal = new RequestAbort();
    const abortWithRun = () => signal.abort();
    if (post.signal.aborted) abortWithRun();
    else post.signal.addEventListener('abort', abortWithRun, { once: true });
    const { endpoint, apiKey } = post;

    // Only a request still in flight is aborted: aborting a finished one costs an AbortError and its stack.
    let settled = false;

    async function stream(): Promise<void> {
      const response = await openUpstream({ ...post, signal });
      const status = response.statusCode;
      let finished = false;
      let done = false;
      let failure: UpstreamError | undefined;
      let first = true;
      const template = new TextFrameTemplate();
      const parser = createParser({
        onEvent({ data }) {
          if (done || failure) return;
          const templated = template.read(data);
          if (templated) {
            subscriber.next(templated);
            return;
          }
          if (data.trim() === '[DONE]') {
            done = true;
            return;
          }
          let json: unknown;
          try {
            json = JSON.parse(data);
          } catch {
            failure = new UpstreamError('malformed_frame', `sent a frame that is not JSON: ${redactThenCut(data, [apiKey], 200)}`, status);
            return;
          }
          const error = (json as { error?: unknown } | null)?.error;
          if (error !== undefined && error !== null) {
            const detail = typeof error === 'string' ? error : ((error as { message?: unknown }).message ?? JSON.stringify(error));
            failure = new UpstreamError('upstream_error', `failed mid-stream: ${redactThenCut(String(detail), [apiKey], 300)}`, status);
            return;
          }
          const read = readUpstreamChunk(json);
          if ('problem' in read) {
            const { problem } = read;
            failure = new UpstreamError(
              'malformed_frame',
              `sent a chunk rxgate cannot read (${problem}): ${redactThenCut(data, [apiKey], 200)}`,
              status,
            );
            return;
          }
          let { chunk } = read;
          template.learn(data, chunk);
          if (first) {
            first = false;
            const { id, model } = json as Record<string, unknown>;
            chunk = { id: typeof id === 'string' ? id : undefined, model: typeof model === 'string' ? model : undefined, ...chunk };
          }
          if (chunk.choices?.some((choice) => choice.finish_reason)) finished = true;
          subscriber.next(chunk);
        },
      });
      // Read with listeners, not `for await`: a suspended async function, the stream's async iterator and
      // its end-of-stream watcher (seven closures) were held by every open stream for its life.
      const body = response.body;
      const decoder = new StreamTextDecoder();
      const frameBytes = createFrameMeter(maxFrameBytes);
      let ended = false;
      const end = (error?: unknown) => {
        if (ended) return;
        ended = true;
        settled = true;
        body.off('data', onData);
        body.off('end', onEnd);
        body.off('error', onError);
        body.off('close', onClose);
        // Past a failure or an unsubscription nothing more is read. Past [DONE] the body's last bytes are
        // read and dropped, so that undici keeps the connection: a body destroyed there cost every request
        // a new connection and an aborted-request error with its stack (undici's bodyTimeout bounds the wait).
        if (done && error === undefined && !failure && !subscriber.closed) body.dump().catch(() => undefined);
        else body.destroy();
        if (subscriber.closed || signal.aborted) return;
        if (error !== undefined) subscriber.error(toUpstreamError(error, endpoint.url, 'stream', status));
        else if (failure) subscriber.error(failure);
        else if (!done && !finished)
          subscriber.error(new UpstreamError('dropped', 'ended the stream before it finished (no finish_reason and no [DONE])', status));
        else subscriber.complete();
      };
      function onData(bytes: Buffer) {
        try {
          // Checked before the parser sees the bytes: it buffers an unended event whole.
          if (frameBytes(bytes) > maxFrameBytes) {
            failure = new UpstreamError(
              'malformed_frame',
              `sent more than ${maxFrameBytes} bytes without ending an event (maxFrameBytes, RXGATE_UPSTREAM_MAX_FRAME_BYTES)`,
              status,
            );
            end();
            return;
          }
          parser.feed(decoder.decode(bytes));
        } catch (error) {
          end(error);
          return;
        }
        if (done || failure || subscriber.closed) end();
      }
      function onEnd() {
        end();
      }
      function onError(error: unknown) {
        end(error);
      }
      // A body that closes without its end or an error was cut off, as `for await` would have said.
      function onClose() {
        end(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
      }
      body.on('data', onData);
      body.on('end', onEnd);
      body.on('error', onError);
      body.on('close', onClose);
    }

    stream().catch((error: unknown) => {
      settled = true;
      // Our own abort: the subscriber left, so there is no one to tell.
      if (signal.aborted || subscriber.closed) return;
      subscriber.error(error instanceof UpstreamError ? error : toUpstreamError(error, endpoint.url, 'stream'));
    });
    return () => {
      post.signal.removeEventListener('abort', abortWithRun);
      if (!settled) signal.abort();
    };
  });
}
