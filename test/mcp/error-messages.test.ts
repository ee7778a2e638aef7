import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ClientRequest, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ReadContext } from '../../src/domain/specimens.ts';
import { createLogger } from '../../src/logger.ts';
import { createMcpServer, UNAVAILABLE_TEXT } from '../../src/mcp/server.ts';
import { startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';
import { connectMcpClient } from '../helpers/mcp-client.ts';

/** Requests the server refuses with a JSON-RPC error, the code and the message it sends. */
const REFUSED: [ClientRequest, number, string][] = [
  [{ method: 'tools/call', params: { name: 'delete_everything', arguments: {} } }, -32602, 'Unknown tool "delete_everything". Tools: search_specimens, get_specimen, get_timeline.'],
  [{ method: 'resources/read', params: { uri: 'archive://specimens/svg-nothing-00000000' } }, -32002, 'No record has the id "svg-nothing-00000000". Use search_specimens to find ids.'],
  [{ method: 'prompts/get', params: { name: 'cite_work', arguments: {} } }, -32602, 'The prompt needs the argument "id".'],
  [{ method: 'prompts/get', params: { name: 'cite_work', arguments: { id: 'svg-nothing-00000000', lang: 'fr' } } }, -32602, 'lang must be zh or en.'],
  [{ method: 'prompts/get', params: { name: 'write_poem' } }, -32602, 'Unknown prompt "write_poem". Prompts: cite_work, first_work_of_model.'],
  [{ method: 'resources/read', params: {} } as ClientRequest, -32602, 'Invalid params for resources/read: uri is required.'],
];

describe('the messages of the MCP server\'s JSON-RPC errors', function () {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server.close());

  it('sends each message plain, without the SDK\'s "MCP error <code>: " prefix, over HTTP', async () => {
    for (const [request, code, message] of REFUSED) {
      const response = await server.get('/mcp', {
        method: 'POST',
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, ...request }),
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      });
      const body = (await response.json()) as { error: { code: number; message: string } };
      expect(body.error, JSON.stringify(request)).to.deep.equal({ code, message });
    }
  });

  it('reaches an SDK client with the prefix once, as the client writes it', async () => {
    const client = await connectMcpClient(server.baseUrl);
    try {
      for (const [request, code, message] of REFUSED) {
        const error = await client.request(request, ResultSchema).then(() => undefined, (caught: unknown) => caught as McpError);
        expect(error?.code, JSON.stringify(request)).to.equal(code);
        expect(error?.message).to.equal(`MCP error ${code}: ${message}`);
      }
    } finally {
      await client.close();
    }
  });

  it('sends internal errors plain too, never the failure\'s own message: the service unavailable, or a bare "Internal error"', async () => {
    const down = new Error('connect ECONNREFUSED 10.0.0.7:7700');
    const search = new Proxy(server.backend.search, { get: (target, key) => (key === 'search' ? () => Promise.reject(down) : Reflect.get(target, key)) });
    const context: ReadContext = { store: server.backend.store, search, baseUrl: server.baseUrl, sources: () => Promise.reject(down) };
    const failing: ClientRequest[] = [
      { method: 'resources/read', params: { uri: 'archive://facets' } },
      { method: 'prompts/get', params: { name: 'first_work_of_model', arguments: { model: 'GPT-4o' } } },
      { method: 'tools/list' },
    ];
    for (const [unavailable, message] of [[true, UNAVAILABLE_TEXT], [false, 'Internal error']] as const) {
      const mcp = createMcpServer(context, '1.0.0', { readsPerMinute: 0 }, { isUnavailable: () => unavailable, logger: createLogger('error', () => undefined) });
      const client = new Client({ name: 'archive-test-client', version: '1.0.0' });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await mcp.connect(serverSide);
      await client.connect(clientSide);
      try {
        for (const request of failing) {
          const error = await client.request(request, ResultSchema).then(() => undefined, (caught: unknown) => caught as McpError);
          expect(error?.code, request.method).to.equal(-32603);
          expect(error?.message, request.method).to.equal(`MCP error -32603: ${message}`);
        }
      } finally {
        await client.close();
      }
    }
  });
});
