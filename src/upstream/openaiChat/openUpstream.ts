import { getGlobalDispatcher, type Dispatcher } from 'undici';
import { UpstreamError } from '../../errors/UpstreamError.js';
import { parseRetryAfter } from '../parseRetryAfter.js';
import type { RequestAbort } from '../RequestAbort.js';
import { redactThenCut } from '../../errors/redactSecrets.js';
import type { UpstreamPost } from '../UpstreamPost.js';
import { toUpstreamError } from './toUpstreamError.js';

/** A post whose request is aborted by the run's signal or by a `RequestAbort` of the call's own. */
export type OpenUpstreamPost = Omit<UpstreamPost, 'signal' | 'kind'> & { readonly signal: AbortSignal | RequestAbort };

const MAX_ERROR_BODY = 2000;

function headerOf(response: UpstreamResponse, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export type UpstreamResponse = Dispatcher.ResponseData;

interface ErrorDetail {
  readonly message: string;
  readonly upstreamCode?: string;
}

/**
 * The first `MAX_ERROR_BODY` characters of an error body, and not a chunk more: an upstream may send an
 * endless one. Leaving the loop early destroys the body, which closes the connection instead of draining it.
 */
async function errorText(body: UpstreamResponse['body']): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  try {
    for await (const chunk of body as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      if (text.length >= MAX_ERROR_BODY) break;
    }
    if (text.length < MAX_ERROR_BODY) text += decoder.decode();
  } catch {
    // a body cut short: what did arrive is the detail
  }
  return text.slice(0, MAX_ERROR_BODY);
}

/** The upstream's own words from an error body: `error.message` (and `error.code`) of an OpenAI envelope, else the text. */
async function errorDetail(response: UpstreamResponse, apiKey: string | undefined): Promise<ErrorDetail> {
  const text = await errorText(response.body);
  let message = text.trim();
  let upstreamCode: string | undefined;
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown; code?: unknown } | string; message?: unknown };
    const candidate = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof candidate === 'string') message = candidate;
    const code = typeof parsed.error === 'object' ? parsed.error?.code : undefined;
    if (typeof code === 'string') upstreamCode = code;
  } catch {
    // not JSON: the text is the detail
  }
  return { message: redactThenCut(message, [apiKey], 300) || '(no body)', upstreamCode };
}

/** The headers that carry an upstream's key, and any its wire requires besides (Anthropic's `anthropic-version`). */
export type KeyHeaders = (apiKey: string | undefined) => Readonly<Record<string, string>>;

/** OpenAI's: the key as `Authorization: Bearer`. */
const bearer: KeyHeaders = (apiKey): Record<string, string> => (apiKey ? { authorization: `Bearer ${apiKey}` } : {});

/**
 * POSTs a streaming model call (a chat completion, with `keyHeaders` another wire's) and returns the
 * response once it is known to be a 2xx `text/event-stream`; every other answer becomes an
 * `UpstreamError` of its own kind. An error body's message is read from OpenAI's envelope and
 * Anthropic's alike (`error.message`).
 */
export async function openUpstream(
  { endpoint, apiKey, body, signal, requestId, onResponse, dispatcher, traceHeaders }: OpenUpstreamPost,
  keyHeaders: KeyHeaders = bearer,
): Promise<UpstreamResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream', ...keyHeaders(apiKey) };
  if (requestId) headers['x-request-id'] = requestId;
  // Outside the try: a body that cannot be serialised is this side's failure, never the upstream's.
  const json = JSON.stringify(body);
  if (traceHeaders) Object.assign(headers, traceHeaders);
  let response: UpstreamResponse;
  try {
    // undici's own `request`, not `fetch`: no WHATWG streams, a fraction of the cost per request and per chunk.
    const { origin, path } = endpoint;
    response = await (dispatcher ?? getGlobalDispatcher()).request({ origin, path, method: 'POST', headers, body: json, signal });
  } catch (error) {
    if (!signal.aborted) onResponse?.(0);
    throw toUpstreamError(error, endpoint.url, 'connect');
  }
  // Body errors are read where the body is read (its iterator, `text()`); one that comes after
  // (a destroy once the reader left) must not become an uncaught 'error' event.
  response.body.on('error', () => undefined);
  const status = response.statusCode;
  onResponse?.(status);
  if (status < 200 || status >= 300) {
    const retryAfterMs = parseRetryAfter(headerOf(response, 'retry-after'), Date.now());
    const { message, upstreamCode } = await errorDetail(response, apiKey);
    const options = { upstreamCode, retryAfterMs };
    if (status === 401 || status === 403) {
      const hint = apiKey ? 'check the API key' : 'no API key is configured';
      throw new UpstreamError('unauthorized', `refused the request with HTTP ${status} (${hint}): ${message}`, status, options);
    }
    if (status === 429) {
      // What rxgate read, not the header: an upstream's header may be 400 digits.
      const when = retryAfterMs === undefined ? '' : `; Retry-After: ${Math.ceil(retryAfterMs / 1000)} s`;
      throw new UpstreamError('rate_limited', `is rate limiting requests (HTTP 429${when}): ${message}`, status, options);
    }
    throw new UpstreamError('bad_status', `answered HTTP ${status}: ${message}`, status, options);
  }
  const contentType = headerOf(response, 'content-type') ?? '';
  if (!contentType.toLowerCase().startsWith('text/event-stream')) {
    await response.body.dump().catch(() => undefined);
    throw new UpstreamError('not_sse', `answered with content-type "${contentType || 'none'}" instead of a text/event-stream`, status);
  }
  return response;
}
