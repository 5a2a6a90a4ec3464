import type { Dispatcher } from 'undici';
import type { AbortNotice } from './AbortNotice.js';
import type { UpstreamEndpoint } from './UpstreamEndpoint.js';
import type { UpstreamKind } from './routes.js';

/** One model call as an upstream kind is asked to make it: where, with which key and body, aborted by what. */
export interface UpstreamPost {
  /** The wire the upstream speaks; `body` is a chat completions body either way, which an `anthropic` upstream's call translates. */
  readonly kind: UpstreamKind;
  readonly endpoint: UpstreamEndpoint;
  readonly apiKey?: string;
  readonly body: unknown;
  /** The target's `maxOutputTokens`: Anthropic requires a `max_tokens`, and a body without one is given this. */
  readonly maxOutputTokens?: number;
  /** The run's abort: an `AbortSignal`, or a run's `RunAbort`. */
  readonly signal: AbortNotice;
  /** Sent as `X-Request-Id`, so the upstream's logs line up with ours. */
  readonly requestId?: string;
  /** Told the HTTP status of every answer, and 0 for a call that got none (metrics). */
  readonly onResponse?: (status: number) => void;
  /** The connection pool, with its connect, first-byte and idle timeouts. Default: undici's global one. */
  readonly dispatcher?: Dispatcher;
  /** The W3C trace context headers of the attempt's span (`traceparent`), when tracing is on. */
  readonly traceHeaders?: Readonly<Record<string, string>>;
}
