import { RxgateError } from './RxgateError.js';

/** A run failed inside the agent (not the upstream, not the client). */
export class AgentError extends RxgateError {
  constructor(
    message: string,
    readonly code: string = 'agent_error',
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
