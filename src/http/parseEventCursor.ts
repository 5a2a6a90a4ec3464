import { RequestError } from '../errors/RequestError.js';

/**
 * The sequence number a subscriber has already seen (`Last-Event-ID`, `starting_after`), or -1
 * for "from the start". Anything but a whole number is a 400 naming `param`.
 */
export function parseEventCursor(value: unknown, param: string): number {
  if (value === undefined || value === '') return -1;
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) {
    throw new RequestError(
      400,
      `invalid '${param}': must be a whole number, the sequence number of the last event seen`,
      'invalid_request_error',
      param,
      'invalid_value',
    );
  }
  return Number(value);
}
