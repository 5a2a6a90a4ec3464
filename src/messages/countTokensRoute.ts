import type { RouteHandler } from '../serving/routeHandler.js';
import { tokenCounter } from '../wire/tokenCount.js';
import { countInputTokens } from './countInputTokens.js';
import { readMessagesBody } from './messagesRequest.js';
import { countTokensRequestSchema } from './messagesRequestSchema.js';

/**
 * `POST /v1/messages/count_tokens`: the request's input tokens, `{"input_tokens": N}`, counted
 * here with rxgate's tokenizer (`o200k_base`), never by a paid upstream call: Claude Code's
 * `/context` sends about two dozen at once.
 */
export function countTokensRoute(): RouteHandler {
  return (req, res) => {
    const body = readMessagesBody(req.body, countTokensRequestSchema);
    return tokenCounter().then((count) => void res.json({ input_tokens: countInputTokens(count, body) }));
  };
}
