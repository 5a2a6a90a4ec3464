/** Caps that keep a hostile body from making the agent's input explode, the same on every OpenAI-wire API. */
export const MAX_TEXT_CHARS = 64 * 1024;
export const MAX_PARTS = 1000;
export const MAX_MESSAGES = 1000;
