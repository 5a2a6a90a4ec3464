import { RxgateError } from './RxgateError.js';

/** A setting rxgate cannot start with; the message names the setting and what it accepts. */
export class ConfigError extends RxgateError {}
