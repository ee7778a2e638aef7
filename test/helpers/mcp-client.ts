import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A real MCP client connected over Streamable HTTP to the server at baseUrl's /mcp. */
export async function connectMcpClient(baseUrl: string): Promise<Client> {
  const client = new Client({ name: 'archive-test-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`)));
  return client;
}

/** Calls a tool and gives its result as a tool result (the SDK's wider type narrowed). */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}
