import { RxgateError } from './RxgateError.js';

/** An SSE frame field that would break the wire format (a newline inside `event` or `id`). */
export class SseFrameError extends RxgateError {}
