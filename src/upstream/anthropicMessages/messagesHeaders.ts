import type { KeyHeaders } from '../openaiChat/openUpstream.js';

/** The Messages API version rxgate's translation speaks. */
export const ANTHROPIC_VERSION = '2023-06-01';

/** Anthropic's: the key as `x-api-key`, and the API version every request must name. */
export const messagesHeaders: KeyHeaders = (apiKey): Record<string, string> =>
  apiKey ? { 'x-api-key': apiKey, 'anthropic-version': ANTHROPIC_VERSION } : { 'anthropic-version': ANTHROPIC_VERSION };
