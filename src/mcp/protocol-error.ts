/**
 * A JSON-RPC error the MCP server answers a request with (InvalidParams, resource not found, an
 * internal error). The SDK's server sends a thrown error's `code` and `message` as they are
 * (`Protocol._onrequest`); its own McpError puts "MCP error <code>: " before the message, which
 * the SDK's client puts there again when it receives it, so an agent read the prefix twice. This
 * one carries the plain message, as docs/mcp.md shows them.
 */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';

  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
