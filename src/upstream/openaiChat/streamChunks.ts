import { createParser } from 'eventsource-parser';
import { Observable } from 'rxjs';
import { UpstreamError } from '../../errors/UpstreamError.js';
import { createFrameMeter } from '../createFrameMeter.js';
import { RequestAbort } from '../RequestAbort.js';
import type { UpstreamChunk } from '../upstreamChunk.js';
import type { UpstreamPost } from '../UpstreamPost.js';
import type { EventReader } from './EventReader.js';
import type { OpenUpstreamPost, UpstreamResponse } from './openUpstream.js';
import { StreamTextDecoder } from './StreamTextDecoder.js';
import { toUpstreamError } from './toUpstreamError.js';

export interface StreamChunksOptions {
  /**
   * The most bytes the upstream may send without ending an SSE event (a blank line): past it the
   * call fails with `malformed_frame` instead of buffering an endless line. Default: 1 MiB.
   */
  readonly maxFrameBytes?: number;
}

/** How one upstream kind makes its call: the request (`openUpstream` with its headers), and the reader of its answer's events. */
export interface StreamKind {
  readonly open: (post: OpenUpstreamPost) => Promise<UpstreamResponse>;
  readonly reader: (status: number) => EventReader;
  /** What a body that ends before the answer did lacks, as its `dropped` error says it: `no finish_reason and no [DONE]`. */
  readonly lacking: string;
}

/**
 * One upstream call as a cold stream of its chunks, for any kind: subscribing POSTs, the SSE body is
 * read with listeners and each event handed to the kind's reader, whose chunks are the values and
 * whose terminal event completes. Unsubscribing aborts the request, and so does an abort of
 * `post.signal`; an abort is never reported as an error (nobody is listening any more). A reader's
 * failure, an event longer than `maxFrameBytes` (`malformed_frame`) and a body that ends before
 * the terminal event or a finish (`dropped`) are the stream's `UpstreamError`.
 */
export function streamChunks(
  post: UpstreamPost,
  kind: StreamKind,
  { maxFrameBytes = 1_048_576 }: StreamChunksOptions = {},
): Observable<UpstreamChunk> {
  return new Observable<UpstreamChunk>((subscriber) => {
    // Aborted by an unsubscription or by the run's own signal: a listener, not `AbortSignal.any`,
    // whose composite signal and weak references every open stream would hold.
    const signal = new RequestAbort();
    const abortWithRun = () => signal.abort();
    if (post.signal.aborted) abortWithRun();
    else post.signal.addEventListener('abort', abortWithRun, { once: true });
    const { endpoint } = post;

    // Only a request still in flight is aborted: aborting a finished one costs an AbortError and its stack.
    let settled = false;

    async function stream(): Promise<void> {
      const response = await kind.open({ ...post, signal });
      const status = response.statusCode;
      let failure: UpstreamError | undefined;
      const reader = kind.reader(status);
      const parser = createParser({
        onEvent(event) {
          if (reader.done || failure) return;
          const read = reader.read(event);
          if (read instanceof UpstreamError) failure = read;
          else if (read) subscriber.next(read);
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
        // Past a failure or an unsubscription nothing more is read. Past the terminal event the body's last bytes are
        // read and dropped, so that undici keeps the connection: a body destroyed there cost every request
        // a new connection and an aborted-request error with its stack (undici's bodyTimeout bounds the wait).
        const { done, finished } = reader;
        if (done && error === undefined && !failure && !subscriber.closed) body.dump().catch(() => undefined);
        else body.destroy();
        if (subscriber.closed || signal.aborted) return;
        if (error !== undefined) subscriber.error(toUpstreamError(error, endpoint.url, 'stream', status));
        else if (failure) subscriber.error(failure);
        else if (!done && !finished)
          subscriber.error(new UpstreamError('dropped', `ended the stream before it finished (${kind.lacking})`, status));
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
        if (reader.done || failure || subscriber.closed) end();
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
