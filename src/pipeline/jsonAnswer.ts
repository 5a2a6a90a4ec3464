import type { Response } from 'express';

/** An HTTP answer as it can be kept and sent again: its status, the headers it set, its JSON body. */
export interface JsonAnswer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** Sends `answer`. */
export function sendJsonAnswer(res: Response, { status, headers = {}, body }: JsonAnswer): void {
  res.status(status).set(headers).json(body);
}
