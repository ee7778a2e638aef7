import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SCHEMAS } from '../../src/validation/schemas.ts';
import { getJson, startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';
import { makeRecord } from '../helpers/factories.ts';

describe('MCP tool server at /mcp', function () {
  let server: TestServer;
  let client: Client;

  before(async () => {
    server = await startTestServer({ demo: true });
    await server.backend.store.putRecords([makeRecord({ date: '2026-11-01', title: { zh: '隐藏\u202e字符\u0007', en: 'Hidden\u200b characters\u0000 here' } })]);
    client = new Client({ name: 'archive-test-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`)));
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  const post = (body: string, headers: Record<string, string> = {}) =>
    server.get('/mcp', { method: 'POST', body, headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers } });
  const initialize = (protocolVersion: string) =>
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'curl-like', version: '1' } } });

  it('initializes with the latest protocol and says record text is never instructions', () => {
    expect(client.getServerVersion()).to.include({ name: 'model-works-archive', version: '1.0.0' });
    expect(client.getInstructions()).to.match(/never an instruction/);
    expect(client.getServerCapabilities()).to.have.keys('tools', 'resources');
  });

  it('also speaks older protocol versions', async () => {
    for (const version of ['2025-06-18', '2025-03-26', '2024-11-05']) {
      const response = await post(initialize(version));
      expect(response.status).to.equal(200);
      const body = (await response.json()) as { result: { protocolVersion: string } };
      expect(body.result.protocolVersion).to.equal(version);
    }
  });

  it('lists exactly three read-only tools with the shared schemas and annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).to.deep.equal(['get_specimen', 'get_timeline', 'search_specimens']);
    for (const tool of tools) {
      expect(tool.title).to.be.a('string');
      expect(tool.annotations).to.include({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
      expect(tool.annotations?.title).to.equal(tool.title);
      expect(tool.outputSchema?.type).to.equal('object');
      expect(tool.inputSchema.properties).to.have.property('lang');
    }
    const search = tools.find((tool) => tool.name === 'search_specimens');
    expect(search?.inputSchema.properties).to.deep.equal(SCHEMAS.searchParams.properties);
    expect(tools.find((tool) => tool.name === 'get_specimen')?.inputSchema.required).to.deep.equal(['id']);
  });

  it('returns the same JSON as the HTTP API for the same arguments', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['search_specimens', { q: 'pelican', lang: 'en', limit: 5 }, '/api/v1/specimens?q=pelican&lang=en&limit=5'],
      ['search_specimens', { q: '鹈鹕', format: 'svg' }, `/api/v1/specimens?q=${encodeURIComponent('鹈鹕')}&format=svg`],
      ['search_specimens', {}, '/api/v1/specimens'],
      ['get_timeline', { lang: 'en', limit: 3, offset: 1 }, '/api/v1/timeline?lang=en&limit=3&offset=1'],
    ];
    for (const [name, args, path] of cases) {
      const result = await call(name, args);
      const http = await getJson(server, path);
      expect(result.isError ?? false).to.equal(false);
      expect(result.structuredContent).to.deep.equal(http.body);
      const text = result.content[0];
      expect(text?.type === 'text' ? JSON.parse(text.text) : undefined).to.deep.equal(http.body);
    }
    const { body } = await getJson<{ items: { id: string }[] }>(server, '/api/v1/specimens?limit=1');
    const id = body.items[0]?.id ?? '';
    expect((await call('get_specimen', { id, lang: 'en' })).structuredContent).to.deep.equal((await getJson(server, `/api/v1/specimens/${id}?lang=en`)).body);
  });

  it('refuses invalid arguments with a message naming each of them', async () => {
    const result = await call('search_specimens', { limit: 500, lang: 'fr', colour: 'red' });
    expect(result.isError).to.equal(true);
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
    expect(text).to.include('limit').and.include('lang').and.include('colour');
    expect((await call('get_timeline', { kind: 'gallery' })).isError).to.equal(true);
    expect((await call('get_specimen', { lang: 'en' })).isError).to.equal(true);
  });

  it('answers an unknown id with an error result, never a made-up record', async () => {
    const result = await call('get_specimen', { id: 'svg-nothing-00000000', lang: 'en' });
    expect(result.isError).to.equal(true);
    expect(result.structuredContent).to.equal(undefined);
  });

  it('keeps control and invisible characters out of tool results', async () => {
    const result = await call('search_specimens', { q: 'hidden', lang: 'en' });
    expect(JSON.stringify(result)).to.not.match(/\\u0000|\\u200b|\\u202e|\\u0007/);
    const structured = result.structuredContent as { items: { title: string }[] };
    expect(structured.items[0]?.title).to.equal('Hidden characters here');
  });

  it('offers the guide in both languages and the catalog description as resources', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.name)).to.deep.equal(['guide-zh', 'guide-en', 'catalog']);
    for (const [uri, path] of [[`${server.baseUrl}/llms.txt`, '/llms.txt'], [`${server.baseUrl}/en/llms.txt`, '/en/llms.txt']]) {
      const read = await client.readResource({ uri: uri ?? '' });
      const content = read.contents[0];
      expect(content && 'text' in content ? content.text : '').to.equal(await (await server.get(path ?? '')).text());
    }
    const catalog = await client.readResource({ uri: 'archive://catalog' });
    const content = catalog.contents[0];
    const description = JSON.parse(content && 'text' in content ? String(content.text) : '{}') as { version: string; total: number; countsByKind: Record<string, number>; countsByFormat: Record<string, number> };
    expect(description.version).to.equal('1.0');
    expect(description.total).to.equal(45);
    expect(Object.values(description.countsByKind).reduce((a, b) => a + b, 0)).to.equal(45);
    expect(Object.values(description.countsByFormat).reduce((a, b) => a + b, 0)).to.equal(45);
  });

  it('refuses foreign origins, oversized bodies, unsupported protocol versions and other methods', async () => {
    const foreign = await post(initialize('2025-11-25'), { Origin: 'https://evil.example' });
    expect(foreign.status).to.equal(403);
    expect(foreign.headers.get('content-type')).to.match(/problem\+json/);
    expect((await post(initialize('2025-11-25'), { Origin: server.baseUrl })).status).to.equal(200);
    expect((await post(initialize('2025-11-25'), { Origin: 'https://allowed.example' })).status).to.equal(200);
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { padding: 'x'.repeat(70 * 1024) } });
    expect((await post(big)).status).to.equal(413);
    expect((await post(initialize('2025-11-25'), { 'MCP-Protocol-Version': '1999-01-01' })).status).to.equal(400);
    expect((await post('{not json')).status).to.equal(400);
    expect((await server.get('/mcp', { method: 'POST', body: 'x', headers: { 'Content-Type': 'text/plain' } })).status).to.equal(415);
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const response = await server.get('/mcp', { method });
      expect(response.status, method).to.equal(405);
      expect(response.headers.get('allow')).to.equal('POST, OPTIONS');
    }
  });
});
