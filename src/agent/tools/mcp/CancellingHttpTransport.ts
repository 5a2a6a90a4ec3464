import {
  StreamableHTTPClientTransport,
  type JSONRPCMessage,
  type RequestId,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';

function cancelledRequestId(message: JSONRPCMessage): RequestId | undefined {
  if (!('method' in message) || message.method !== 'notifications/cancelled') return undefined;
  return (message.params as { requestId?: RequestId } | undefined)?.requestId;
}

/** A traced call's W3C trace context (its `_meta.traceparent`, `_meta.tracestate`) as the headers of its request. */
function withTraceHeaders(message: JSONRPCMessage, options: TransportSendOptions | undefined): TransportSendOptions | undefined {
  const meta = 'params' in message ? (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta : undefined;
  if (typeof meta?.traceparent !== 'string') return options;
  const headers: Record<string, string> = { ...options?.headers, traceparent: meta.traceparent };
  if (typeof meta.tracestate === 'string') headers.tracestate = meta.tracestate;
  return { ...options, headers };
}

/**
 * The SDK's Streamable HTTP client transport, which also closes a cancelled call's request.
 *
 * On a 2025-era connection the SDK cancels a call by POSTing `notifications/cancelled` and
 * leaves the call's own POST, and its SSE response stream, open until the server ends it (which a
 * server that honours the cancellation never does: it sends no response). This transport gives
 * each `tools/call` a request signal (the transport option the SDK itself uses for this on
 * 2026-era connections) and aborts it once the cancellation has been sent, so the server sees the
 * request close as well and no stream is left behind. Closing waits for cancellations still
 * being sent, so a shutdown does not cut them off (`cancellationsSent` lets a caller wait for them
 * before it ends the session, which would make them arrive at a server that forgot the call).
 */
export class CancellingHttpTransport extends StreamableHTTPClientTransport {
  readonly #calls = new Map<RequestId, AbortController>();
  readonly #cancelling = new Set<Promise<void>>();

  override async send(message: JSONRPCMessage | JSONRPCMessage[], options?: TransportSendOptions): Promise<void> {
    if (Array.isArray(message)) return super.send(message, options);
    if ('method' in message && message.method === 'tools/call' && 'id' in message && options?.requestSignal === undefined) {
      return super.send(message, this.#track(message.id, withTraceHeaders(message, options)));
    }
    const cancelled = cancelledRequestId(message);
    if (cancelled === undefined) return super.send(message, options);
    const sending = super.send(message, options).finally(() => {
      this.#calls.get(cancelled)?.abort();
      this.#calls.delete(cancelled);
      this.#cancelling.delete(sending);
    });
    this.#cancelling.add(sending);
    return sending;
  }

  override async start(): Promise<void> {
    // The client installs its handlers before it starts the transport.
    const deliver = this.onmessage;
    this.onmessage = (message: JSONRPCMessage) => {
      if ('id' in message && message.id !== undefined && !('method' in message)) this.#calls.delete(message.id);
      deliver?.(message);
    };
    return super.start();
  }

  /** Resolves once every cancellation sent so far has been delivered (or failed). */
  async cancellationsSent(): Promise<void> {
    await Promise.allSettled(this.#cancelling);
  }

  override async close(): Promise<void> {
    await this.cancellationsSent();
    this.#calls.clear();
    return super.close();
  }

  #track(id: RequestId, options: TransportSendOptions | undefined): TransportSendOptions {
    const controller = new AbortController();
    this.#calls.set(id, controller);
    return { ...options, requestSignal: controller.signal };
  }
}
