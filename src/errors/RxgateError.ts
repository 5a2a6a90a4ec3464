/** The base of every error rxgate raises; the message says what happened and, where it can, what to do. */
export class RxgateError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(`rxgate: ${message}`, options);
    this.name = new.target.name;
  }
}
