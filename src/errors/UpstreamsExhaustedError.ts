import { RxgateError } from './RxgateError.js';
import type { UpstreamError } from './UpstreamError.js';

/**
 * Every attempt rxgate made for a model call failed before its first content (after retries,
 * failovers and fallbacks); `last` is the failure of the last one. The client is told not to retry
 * on top (`x-should-retry: false`), and when to come back if an upstream said so (`Retry-After`).
 */
export class UpstreamsExhaustedError extends RxgateError {
  constructor(
    readonly last: UpstreamError,
    readonly attempts: number,
    /** The shortest `Retry-After` an upstream asked for, in milliseconds, if any did. */
    readonly retryAfterMs?: number,
  ) {
    super(`no upstream could answer after ${attempts} attempts; the last one: ${last.message.replace(/^rxgate: /, '')}`, { cause: last });
  }
}
