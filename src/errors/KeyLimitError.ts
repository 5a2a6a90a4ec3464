import { RxgateError } from './RxgateError.js';

/** A key went over its own limit (`rpm` or `maxStreams` in the keys file); it may retry after `retryAfterSeconds`. */
export class KeyLimitError extends RxgateError {
  constructor(
    readonly keyId: string,
    readonly limit: 'rpm' | 'maxStreams',
    readonly max: number,
    readonly retryAfterSeconds: number,
  ) {
    super(
      limit === 'rpm'
        ? `key '${keyId}' has made the ${max} requests a minute its policy allows; retry after ${retryAfterSeconds} s`
        : `key '${keyId}' already has the ${max} streams and runs in flight its policy allows; retry when one has finished`,
    );
  }
}
