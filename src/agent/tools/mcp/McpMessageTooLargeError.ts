/**
 * An MCP server sent a message larger than `RXGATE_MCP_MAX_MESSAGE_BYTES` (a stdio line, a
 * Streamable HTTP SSE event or JSON body): the transport stopped reading it and closed the
 * connection rather than hold it. The message reads after the server's name.
 */
export class McpMessageTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`sent a message larger than ${limit} bytes (RXGATE_MCP_MAX_MESSAGE_BYTES); rxgate closed the connection and reconnects`);
    this.name = 'McpMessageTooLargeError';
  }
}
