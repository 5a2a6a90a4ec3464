/**
 * A tool was called with arguments it cannot use. Its message is written for the model, which
 * reads it as the tool's result and may call again with better arguments.
 */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolInputError';
  }
}
