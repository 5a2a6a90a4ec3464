import type { Response } from 'express';

/** An HTTP answer as it can be kept and sent again: its status, the headers it set, its JSON body. */
export interface JsonAnswer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body: unknown;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Sends `answer` with the bytes and headers Express's `res.json` sends (`Content-Type: application/json;
 * charset=utf-8`, then `Content-Length`), without its content-type lookup, parse and format on every
 * call. A response that already has a content type, or answers `HEAD`, goes through `res.json`.
 */
export function sendJsonAnswer(res: Response, { status, headers = {}, body }: JsonAnswer): void {
  res.status(status).set(headers);
  if (res.hasHeader('content-type') || res.req.method === 'HEAD') {
    res.json(body);
    return;
  }
  const text = JSON.stringify(body);
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
