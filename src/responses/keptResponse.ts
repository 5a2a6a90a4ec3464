/** A foreground response under an `Idempotency-Key`: what its first request does when it was not answered after all. */
export interface KeptResponse {
  /** Gives the key up (the client left, or the server ended the response first): a retry with it runs again. */
  release(): Promise<void>;
}

/** The one event of a non-streaming response's log: the HTTP error it was first answered with (status, headers, body), for its replays. */
export const HTTP_ANSWER_EVENT = 'http.answer';
