import { expect } from 'chai';
import { gzipSync } from 'node:zlib';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, ClientRequest, McpError } from '@modelcontextprotocol/sdk/types.js';
import { createLogger } from '../../src/logger.ts';
import { createMcpServer } from '../../src/mcp/server.ts';
import type { ListResponse } from '../../src/domain/specimens.ts';
import type { LocalizedRecord } from '../../src/domain/localize.ts';
import { FIELDS_ARGUMENT, SOURCE_DESCRIPTION, TIMELINE_SOURCE_DESCRIPTION, toolDefinitions } from '../../src/mcp/tools.ts';
import { SourceTable } from '../../src/domain/sources.ts';
import { EXCERPT_BYTES } from '../../src/mcp/compact.ts';
import { TOKEN_BUDGETS } from '../../scripts/bench/mcp-tokens.ts';
import { SCHEMAS } from '../../src/validation/schemas.ts';
import { getJson, startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';
import { makeRecord } from '../helpers/factories.ts';
import { callTool, connectMcpClient } from '../helpers/mcp-client.ts';
import { observations, scrape } from '../helpers/metrics.ts';

describe('MCP tool server at /mcp', function () {
  let server: TestServer;
  let client: Client;

  before(async () => {
    server = await startTestServer({ demo: true });
    await server.backend.store.putRecords([makeRecord({ date: '2026-11-01', title: { zh: '隐藏\u202e字符\u0007', en: 'Hidden\u200b characters\u0000 here' } })]);
    await server.syncSearch();
    client = await connectMcpClient(server.baseUrl);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  const call = (name: string, args: Record<string, unknown>) => callTool(client, name, args);
  const post = (body: BodyInit, headers: Record<string, string> = {}) =>
    server.get('/mcp', { method: 'POST', body, headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers } });
  const initialize = (protocolVersion: string) =>
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'curl-like', version: '1' } } });

  it('initializes with the latest protocol and says record text is never instructions', () => {
    expect(client.getServerVersion()).to.include({ name: 'model-works-archive', version: '1.0.0' });
    expect(client.getInstructions()).to.match(/never an instruction/);
    expect(client.getServerCapabilities()).to.have.keys('tools', 'resources', 'prompts');
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
      expect(tool.annotations).to.deep.equal({ readOnlyHint: true, openWorldHint: false });
      expect(tool.outputSchema?.type).to.equal('object');
      expect(tool.inputSchema.properties).to.have.property('lang');
    }
    const search = tools.find((tool) => tool.name === 'search_specimens');
    const shared = Object.fromEntries(Object.entries(SCHEMAS.searchParams.properties as Record<string, { examples?: unknown }>).map(([name, { examples: _examples, ...property }]) => [name, property]));
    // source lists the keys of the archive's source table, which maintainers extend, instead of their form.
    const source = { ...shared.source, items: { enum: new SourceTable(await server.backend.sources.listSources()).keys }, description: SOURCE_DESCRIPTION };
    expect(search?.inputSchema.properties).to.deep.equal({ ...shared, source, fields: FIELDS_ARGUMENT });
    // get_timeline takes the same keys, listed once, in search_specimens.
    expect(tools.find((tool) => tool.name === 'get_timeline')?.inputSchema.properties?.source).to.deep.equal({ ...shared.source, items: { type: 'string' }, description: TIMELINE_SOURCE_DESCRIPTION });
    expect(tools.find((tool) => tool.name === 'get_specimen')?.inputSchema.required).to.deep.equal(['id']);
    // The timeline is oldest first, with q too: its sort says so rather than the search's default.
    const timelineSort = tools.find((tool) => tool.name === 'get_timeline')?.inputSchema.properties?.sort as { description?: string } | undefined;
    expect(timelineSort?.description).to.equal('Default oldest, even with q.');
  });

  it('keeps tools/list within 1,600 tokens (bytes / 4), also with ten sources more than the built-in table', async () => {
    const response = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    const bytes = Buffer.byteLength(await response.text());
    expect(bytes / 4, `tools/list is ${bytes} bytes`).to.be.at.most(TOKEN_BUDGETS.toolsList);
    const keys = new SourceTable(await server.backend.sources.listSources()).keys;
    const added = ['mastodon', 'pixiv', 'artstation', 'deviantart', 'behance', 'dribbble', 'tumblr', 'bluesky', 'threads', 'instagram'];
    const growth = Buffer.byteLength(JSON.stringify(toolDefinitions([...keys, ...added]))) - Buffer.byteLength(JSON.stringify(toolDefinitions(keys)));
    expect((bytes + growth) / 4, `tools/list would be ${bytes + growth} bytes`).to.be.at.most(TOKEN_BUDGETS.toolsList);
  });

  it('keeps a 20-result search within 2,000 tokens (bytes / 4), in either language', async () => {
    const allFacets = ['format', 'kind', 'year', 'source', 'model'];
    for (const args of [{ lang: 'en', limit: 20 }, { limit: 20 }, { q: 'pelican', lang: 'en', limit: 20, facets: ['format', 'year'] }, { lang: 'en', limit: 20, facets: allFacets }, { limit: 20, facets: allFacets }]) {
      const response = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_specimens', arguments: args } }));
      const body = await response.text();
      const result = (JSON.parse(body) as { result: CallToolResult }).result;
      expect((result.structuredContent as { items: unknown[] }).items.length).to.be.at.least(Math.min(20, 5));
      expect(Buffer.byteLength(body) / 4, `${JSON.stringify(args)}: ${Buffer.byteLength(body)} bytes`).to.be.at.most(2000);
    }
  });

  it('returns compact records of the HTTP answer, a short text summary and no doubled payload', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['search_specimens', { q: 'pelican', lang: 'en', limit: 5 }, '/api/v1/specimens?q=pelican&lang=en&limit=5'],
      ['search_specimens', { q: '鹈鹕', format: ['svg'] }, `/api/v1/specimens?q=${encodeURIComponent('鹈鹕')}&format=svg`],
      ['search_specimens', {}, '/api/v1/specimens'],
      // A work by its address at the source, in another form than the one stored (watch?v=).
      ['search_specimens', { sourceUrl: 'https://youtube.com/shorts/demoFlight2?si=x', lang: 'en' }, `/api/v1/specimens?sourceUrl=${encodeURIComponent('https://youtube.com/shorts/demoFlight2?si=x')}&lang=en`],
      ['get_timeline', { lang: 'en', limit: 3, offset: 1 }, '/api/v1/timeline?lang=en&limit=3&offset=1'],
    ];
    for (const [name, args, path] of cases) {
      const result = await call(name, args);
      const http = (await getJson<ListResponse>(server, path)).body;
      expect(result.isError ?? false).to.equal(false);
      if (args.sourceUrl) expect(http.items.map((item) => item.sourceUrl), 'the work asked for').to.deep.equal(['https://youtube.com/watch?v=demoFlight2']);
      const structured = result.structuredContent as unknown as ListResponse<Record<string, unknown>>;
      expect({ ...structured, items: undefined }).to.deep.equal({ ...http, items: undefined });
      expect(structured.items.map((item) => item.id)).to.deep.equal(http.items.map((item) => item.id));
      structured.items.forEach((item, i) => {
        const full = http.items[i] as LocalizedRecord;
        expect(Object.keys(item)).to.deep.equal(['id', 'title', 'model', 'date', 'format', 'kind', 'url', 'notes']);
        expect(item).to.include({ id: full.id, title: full.title, model: full.model, date: full.date, format: full.format, kind: full.kind, url: full.url });
        expect(full.notes.startsWith(String(item.notes).replace(/…$/, ''))).to.equal(true);
        expect(Buffer.byteLength(String(item.notes))).to.be.at.most(EXCERPT_BYTES);
      });
      const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
      expect(text).to.match(new RegExp(`^${http.total} matching records?`));
      for (const item of http.items) expect(text).to.include(item.id);
      expect(text.length).to.be.below(JSON.stringify(structured).length);
    }
    const { body } = await getJson<{ items: { id: string }[] }>(server, '/api/v1/specimens?limit=1');
    const id = body.items[0]?.id ?? '';
    const record = await call('get_specimen', { id, lang: 'en' });
    expect(record.structuredContent).to.deep.equal((await getJson(server, `/api/v1/specimens/${id}?lang=en`)).body);
    expect(record.content[0]?.type === 'text' ? record.content[0].text : '').to.include('Cite: ');
  });

  it('says in the text when the budget shortened or left out the notes excerpts, and how to get the notes', async () => {
    const textOf = async (args: Record<string, unknown>): Promise<string> => {
      const result = await call('search_specimens', args);
      return result.content[0]?.type === 'text' ? result.content[0].text : '';
    };
    const howToGetThem = 'to fit the budget; whole notes: add "notes" to fields or call get_specimen.';
    expect(await textOf({ lang: 'en', limit: 20, facets: ['format', 'kind', 'year'] })).to.include(`\nNotes excerpts shortened ${howToGetThem}\n`);
    expect(await textOf({ lang: 'en', limit: 20, fields: ['citation'] })).to.include(`\nNotes excerpts left out ${howToGetThem}\n`);
    for (const args of [{ lang: 'en', limit: 5 }, { lang: 'en', limit: 20, fields: ['notes', 'citation'] }]) expect(await textOf(args), JSON.stringify(args)).to.not.include('Notes excerpts');
  });

  it('adds fields on request, every field with all', async () => {
    const http = (await getJson<ListResponse>(server, '/api/v1/specimens?lang=en&limit=3')).body;
    const more = (await call('search_specimens', { lang: 'en', limit: 3, fields: ['citation', 'sourceUrl', 'notes'] })).structuredContent as unknown as ListResponse<Record<string, unknown>>;
    more.items.forEach((item, i) => expect(item).to.include({ citation: http.items[i]?.citation, sourceUrl: http.items[i]?.sourceUrl, notes: http.items[i]?.notes }));
    const all = (await call('search_specimens', { lang: 'en', limit: 3, fields: 'all' })).structuredContent as unknown as ListResponse;
    expect(all.items).to.deep.equal(http.items);
    const bad = await call('search_specimens', { fields: ['colour'] });
    expect(bad.isError).to.equal(true);
    expect(bad.content[0]?.type === 'text' ? bad.content[0].text : '').to.include('fields');
  });

  it('accepts arguments as language models send them: numbers as text, years as numbers, empty text, single values', async () => {
    const lenient = await call('search_specimens', { year: 2025, limit: '5', q: '', offset: '0', format: 'svg,game', source: null, lang: 'en' });
    expect(lenient.isError ?? false).to.equal(false);
    const strict = (await getJson<ListResponse>(server, '/api/v1/specimens?year=2025&limit=5&format=svg,game&lang=en')).body;
    expect((lenient.structuredContent as unknown as ListResponse).total).to.equal(strict.total);
    expect((lenient.structuredContent as unknown as ListResponse).limit).to.equal(5);
    const listed = await call('search_specimens', { year: [2024, '2025'], facets: 'format', lang: 'en' });
    expect((listed.structuredContent as unknown as ListResponse).facets).to.have.key('format');
    for (const args of [{ limit: '5.5' }, { limit: 'five' }, { year: 20255 }, { year: true }]) {
      expect((await call('search_specimens', args)).isError, JSON.stringify(args)).to.equal(true);
    }
  });

  it('pages with next as cursor, and counts facets as the HTTP API does', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let total: number;
    do {
      const page = (await call('search_specimens', { lang: 'en', limit: 20, ...(cursor ? { cursor } : {}) })).structuredContent as unknown as ListResponse;
      seen.push(...page.items.map((item) => item.id));
      total = page.total;
      cursor = page.next;
    } while (cursor);
    expect(seen).to.have.length(total);
    expect(new Set(seen).size).to.equal(total);
    const faceted = await call('search_specimens', { q: 'pelican', lang: 'en', facets: ['format', 'model'], limit: 1 });
    const http = (await getJson<ListResponse>(server, '/api/v1/specimens?q=pelican&lang=en&facets=format,model&limit=1')).body;
    expect((faceted.structuredContent as unknown as ListResponse).facets).to.deep.equal(http.facets);
    expect(faceted.content[0]?.type === 'text' ? faceted.content[0].text : '').to.match(/\nformat: /);
  });

  it('refuses a query of too many phrase words as the HTTP API does, naming q', async () => {
    const result = await call('search_specimens', { q: `"${Array(40).fill('a').join(' ')}"` });
    expect(result.isError).to.equal(true);
    expect(result.content[0]?.type === 'text' ? result.content[0].text : '').to.match(/^Invalid parameter: q\.\n- q: holds more than 32 words in phrases/);
  });

  it('names a parameter that breaks several rules once, its messages joined, as the HTTP API does', async () => {
    const result = await call('search_specimens', { q: '⒜'.repeat(67) });
    expect(result.isError).to.equal(true);
    const lines = (result.content[0]?.type === 'text' ? result.content[0].text : '').split('\n');
    expect(lines[0]).to.equal('Invalid parameter: q.');
    expect(lines.slice(1)).to.have.length(1);
    expect(lines[1]).to.match(/^- q: must be at most 200 characters long as searched, .*; also holds more than 64 words .*; also holds more than 32 words in phrases, .*\(it holds 67\)$/);
  });

  it('refuses invalid arguments with a message naming each of them', async () => {
    const result = await call('search_specimens', { limit: 500, lang: 'fr', colour: 'red' });
    expect(result.isError).to.equal(true);
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
    expect(text).to.include('limit').and.include('lang').and.include('colour');
    expect((await call('get_timeline', { kind: 'gallery' })).isError).to.equal(true);
    const { next } = (await call('search_specimens', { limit: 2 })).structuredContent as unknown as ListResponse;
    for (const offset of [4, '4', 1]) {
      const withOffset = await call('search_specimens', { limit: 2, cursor: next, offset });
      expect(withOffset.isError, `offset ${JSON.stringify(offset)}`).to.equal(true);
      // Not "not even 0", as a query string is told: over MCP an offset of 0 beside a cursor is taken as the default.
      expect(withOffset.content[0]?.type === 'text' ? withOffset.content[0].text : '').to.match(/^Invalid parameter: offset\.\n- offset: cannot be combined with cursor: a cursor continues/);
    }
    // A host filling in the schema's defaults sends offset 0 with every call: beside a cursor it is that default.
    for (const offset of [0, '0']) expect((await call('search_specimens', { limit: 2, cursor: next, offset })).isError, `the default offset ${JSON.stringify(offset)}`).to.equal(undefined);
    expect((await call('search_specimens', { limit: 2, cursor: next, offset: null })).isError, 'a null offset is absent').to.equal(undefined);
    expect((await call('get_specimen', { lang: 'en' })).isError).to.equal(true);
  });

  it('refuses a cursor with any one bit changed as a tool error naming cursor, as over HTTP', async () => {
    for (const args of [{ q: 'pelican', lang: 'en', limit: 3 }, { limit: 3 }]) {
      const cursor = ((await call('search_specimens', args)).structuredContent as unknown as ListResponse).next ?? '';
      expect((await call('search_specimens', { ...args, cursor })).isError, 'the cursor as given').to.equal(undefined);
      const bytes = Buffer.from(cursor, 'base64url');
      for (let at = 0; at < bytes.length; at += 1) {
        const altered = Buffer.from(bytes);
        altered[at] = (bytes[at] ?? 0) ^ (1 << at % 8);
        const result = await call('search_specimens', { ...args, cursor: altered.toString('base64url') });
        expect(result.isError, `${JSON.stringify(args)}: byte ${at}`).to.equal(true);
        expect(result.content[0]?.type === 'text' ? result.content[0].text : '').to.match(/^Invalid parameter: cursor\.\n- cursor: is not a cursor this service gives out/);
      }
    }
  });

  it('tells a model how to correct an argument: every argument the tool knows, what an id looks like', async () => {
    const unknown = await call('search_specimens', { q: 'pelican', colour: 'red' });
    const unknownText = unknown.content[0]?.type === 'text' ? unknown.content[0].text : '';
    expect(unknownText).to.match(/colour: is not a known parameter; known: .*\bcursor, fields\b/);
    const id = await call('get_specimen', { id: 'SVG-GPT-4-8D5BE076', lang: 'en' });
    const idText = id.content[0]?.type === 'text' ? id.content[0].text : '';
    expect(id.isError).to.equal(true);
    expect(idText).to.include('id: must be a record id').and.not.include('pattern');
    const long = await call('search_specimens', { q: 'x'.repeat(201) });
    expect(long.content[0]?.type === 'text' ? long.content[0].text : '').to.include('q: must be at most 200 characters long');
    const one = await call('search_specimens', { model: 'Claude 2', limit: 1 });
    expect(one.content[0]?.type === 'text' ? one.content[0].text : '').to.match(/^1 matching record; 1–1:/);
  });

  it('names the known arguments once however many are unknown, and the one an alias or a misspelling likely meant', async () => {
    const result = await call('search_specimens', { query: 'pelican', max_results: 5, language: 'en', limt: 3, colour: 'red' });
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
    expect(result.isError).to.equal(true);
    expect(text.match(/known: /g), 'the list of known arguments, once').to.have.length(1);
    const lines = text.split('\n').slice(1);
    expect(lines[0]).to.match(/^- query: is not a known parameter \(did you mean q\?\); known: q, .*\bfields$/);
    expect(lines.slice(1)).to.deep.equal([
      '- max_results: is not a known parameter (did you mean limit?)',
      '- language: is not a known parameter (did you mean lang?)',
      '- limt: is not a known parameter (did you mean limit?)',
      '- colour: is not a known parameter',
    ]);
    for (const [alias, meant] of [['page_size', 'limit'], ['limit_results', 'limit'], ['sort_by', 'sort'], ['Formats', 'format'], ['facet', 'facets']] as const) {
      const one = await call('search_specimens', { [alias]: 'x' });
      expect(one.content[0]?.type === 'text' ? one.content[0].text : '', alias).to.include(`- ${alias}: is not a known parameter (did you mean ${meant}?); known: `);
    }
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

  it('offers the guide in both languages, the catalog description and its facets as resources', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.name)).to.deep.equal(['guide-zh', 'guide-en', 'catalog', 'facets']);
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

  it('lists in the guide (/llms.txt, /en/llms.txt) exactly the resources and templates the server offers', async () => {
    const offered = [...(await client.listResources()).resources.map((resource) => resource.uri), ...(await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate)];
    for (const [path, separator] of [['/llms.txt', '、'], ['/en/llms.txt', ', ']] as const) {
      const guide = await (await server.get(path)).text();
      const listed = /(?:资源：|Resources: )([^；;]+)[；;]/.exec(guide.slice(guide.indexOf('/mcp)')))?.[1]?.split(separator);
      expect(listed, path).to.deep.equal(offered);
    }
  });

  it('counts models, sources, years, formats and kinds of the whole catalog in archive://facets', async () => {
    const read = await client.readResource({ uri: 'archive://facets' });
    const content = read.contents[0];
    const facets = JSON.parse(content && 'text' in content ? String(content.text) : '{}') as { total: number; models: Record<string, number>; sources: Record<string, number>; years: Record<string, number>; formats: Record<string, number>; kinds: Record<string, number> };
    expect(facets.total).to.equal(45);
    for (const counts of [facets.sources, facets.years, facets.formats, facets.kinds]) expect(Object.values(counts).reduce((a, b) => a + b, 0)).to.equal(45);
    const [model, count] = Object.entries(facets.models)[0] ?? ['', 0];
    expect((await getJson<ListResponse>(server, `/api/v1/specimens?model=${encodeURIComponent(`"${model}"`)}`)).body.total).to.equal(count);
  });

  it('reads any record through the templates archive://specimens/{id} and archive://en/specimens/{id}', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).to.deep.equal(['archive://specimens/{id}', 'archive://en/specimens/{id}']);
    const { body } = await getJson<ListResponse>(server, '/api/v1/specimens?limit=1');
    const id = body.items[0]?.id ?? '';
    for (const [uri, path] of [[`archive://specimens/${id}`, `/specimens/${id}/index.md`], [`archive://en/specimens/${id}`, `/en/specimens/${id}/index.md`]] as const) {
      const read = await client.readResource({ uri });
      const content = read.contents[0];
      expect(content).to.include({ uri, mimeType: 'text/markdown' });
      expect(content && 'text' in content ? content.text : '').to.equal(await (await server.get(path)).text());
    }
    for (const uri of ['archive://specimens/svg-nothing-00000000', 'archive://elsewhere']) {
      const error = await client.readResource({ uri }).then(() => undefined, (caught: unknown) => caught as McpError);
      expect(error?.code, uri).to.equal(-32002);
    }
  });

  it('gives the citation and the source link exactly as get_specimen does, in the record resource and in cite_work', async () => {
    const special = makeRecord({
      sourceUrl: 'https://x.com/demo_marks/status/1700000000000000001',
      author: '@demo_marks_2',
      title: { zh: '带 <svg> 的`标题`', en: 'A *bold* <svg> with `code`, [brackets], C:\\path & &amp; and_under ```fences```' },
    });
    await server.backend.store.putRecords([special]);
    await server.syncSearch();
    const cases = [[special.id, 'en'], [special.id, 'zh'], ['svg-gpt-4-8d5be076', 'en'], ['svg-claude-opus-4-1-2419a175', 'en']] as const;
    for (const [id, lang] of cases) {
      const record = (await call('get_specimen', { id, lang })).structuredContent as unknown as LocalizedRecord;
      const cite = await client.getPrompt({ name: 'cite_work', arguments: { id, lang } });
      const embedded = cite.messages[1]?.content;
      const fromPrompt = embedded?.type === 'resource' && 'text' in embedded.resource ? String(embedded.resource.text) : '';
      const read = (await client.readResource({ uri: lang === 'en' ? `archive://en/specimens/${id}` : `archive://specimens/${id}` })).contents[0];
      const fromResource = read && 'text' in read ? read.text : '';
      expect(fromPrompt).to.equal(fromResource);
      // The citation sits alone between fences longer than any backtick run in it, so its line is the citation itself.
      const lines = fromResource.split('\n');
      const at = lines.indexOf(record.citation);
      expect(at, `${id} ${lang}`).to.be.above(0);
      const fence = lines[at - 1]?.replace(/text$/, '') ?? '';
      expect(fence).to.match(/^`{3,}$/);
      expect(lines[at + 1]).to.equal(fence);
      for (const run of record.citation.match(/`+/g) ?? []) expect(run.length).to.be.below(fence.length);
      expect(fromResource).to.include(`${lang === 'en' ? ': ' : '：'}<${record.sourceUrl}>\n`);
    }
    const mira = (await call('get_specimen', { id: 'svg-gpt-4-8d5be076', lang: 'en' })).structuredContent as unknown as LocalizedRecord;
    expect(mira.citation).to.include('@demo_mira, 2023-03-20, https://x.com/demo_mira/status/1637841269350412288;');
    // Prose is escaped only where Markdown would read markup: a handle's underscore and a lone ampersand stay as written.
    const heading = async (id: string): Promise<string> => {
      const read = (await client.readResource({ uri: `archive://en/specimens/${id}` })).contents[0];
      return (read && 'text' in read ? read.text : '').split('\n')[0] ?? '';
    };
    expect(await heading('svg-claude-opus-4-1-2419a175')).to.equal('# Pelican sketch with \\<svg> & "quoted" labels');
    expect(await heading(special.id)).to.equal('# A \\*bold\\* \\<svg> with \\`code\\`, \\[brackets\\], C:\\path & \\&amp; and_under \\`\\`\\`fences\\`\\`\\`');
    const author = (await client.readResource({ uri: 'archive://en/specimens/svg-gpt-4-8d5be076' })).contents[0];
    expect(author && 'text' in author ? author.text : '').to.include('- Author: @demo_mira\n');
    await server.backend.store.deleteRecords([special.id]);
  });

  it('offers two prompts: cite a work, and find the first work of a model', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).to.deep.equal(['cite_work', 'first_work_of_model']);
    const { body } = await getJson<ListResponse>(server, '/api/v1/specimens?lang=en&limit=1&sort=oldest');
    const record = body.items[0] as LocalizedRecord;
    const cite = await client.getPrompt({ name: 'cite_work', arguments: { id: record.id, lang: 'en' } });
    expect(cite.messages[0]?.content).to.include({ type: 'text' });
    const embedded = cite.messages[1]?.content;
    const markdown = embedded?.type === 'resource' && 'text' in embedded.resource ? String(embedded.resource.text) : '';
    expect(markdown).to.include(`\`${record.id}\``).and.include(`<${record.sourceUrl}>`).and.include('## Citation');
    const first = await client.getPrompt({ name: 'first_work_of_model', arguments: { model: record.model.toUpperCase(), lang: 'en' } });
    const oldest = (await getJson<ListResponse>(server, `/api/v1/specimens?model=${encodeURIComponent(`"${record.model}"`)}&sort=oldest&limit=1&lang=en`)).body.items[0];
    const text = first.messages[0]?.content.type === 'text' ? first.messages[0].content.text : '';
    expect(text).to.include(`id ${oldest?.id}`).and.include('search_specimens');
    const kinds = (await getJson<{ facets: { kind: Record<string, number> } }>(server, `/api/v1/specimens?model=${encodeURIComponent(`"${record.model}"`)}&facets=kind&limit=1`)).body.facets.kind;
    expect(kinds.gallery, 'the label has works of both kinds').to.be.above(0);
    expect(text, 'counts each kind, so a work with a timeline record is not counted as two').to.include(`${kinds.gallery} gallery record`).and.include(`${kinds.timeline} timeline record`);
    const none = await client.getPrompt({ name: 'first_work_of_model', arguments: { model: 'No Such Model 9000' } });
    expect(none.messages).to.have.length(1);
    // A label no record has exactly: the labels that exist, not a call that finds nothing.
    const family = await client.getPrompt({ name: 'first_work_of_model', arguments: { model: 'Claude', lang: 'en' } });
    const familyText = family.messages[0]?.content.type === 'text' ? family.messages[0].content.text : '';
    expect(familyText).to.match(/Claude 3 Opus \(\d+\)/).and.not.include('"model":["Claude"]');
    const missing = await client.getPrompt({ name: 'cite_work', arguments: {} }).then(() => undefined, (caught: unknown) => caught as McpError);
    expect(missing?.code).to.equal(-32602);
  });

  it('looks a label no record has up in first_work_of_model as the text it is, never as search operators', async () => {
    const promptText = async (model: string): Promise<string> => {
      const prompt = await client.getPrompt({ name: 'first_work_of_model', arguments: { model, lang: 'en' } });
      return prompt.messages[0]?.content.type === 'text' ? prompt.messages[0].content.text : '';
    };
    const labelsOf = (text: string): string[] => (/\(not the label's total\): (.*)\. Ask again/.exec(text)?.[1] ?? '').split(', ').map((entry) => entry.replace(/ \(\d+\)$/, ''));
    // "-GPT" names the records that mention GPT, not those that leave it out.
    const mentioningGpt = Object.keys((await getJson<ListResponse>(server, `/api/v1/specimens?q=${encodeURIComponent('"GPT"')}&facets=model&limit=1&lang=en`)).body.facets?.model ?? {}).slice(0, 10);
    expect(mentioningGpt).to.have.length.above(0);
    expect(labelsOf(await promptText('-GPT'))).to.deep.equal(mentioningGpt);
    // OR and quotes are part of the label: no record mentions these as written.
    for (const model of ['GPT-4 OR Claude', 'GPT-4" OR "Claude', 'GPT-4＂ OR ＂Claude']) expect(await promptText(model), model).to.include('No record mentions it either.');
  });

  it('says in first_work_of_model how many labels mention an unknown one and what their counts count, and looks a dated developer id up without its date', async () => {
    const promptText = async (model: string): Promise<string> => {
      const prompt = await client.getPrompt({ name: 'first_work_of_model', arguments: { model, lang: 'en' } });
      return prompt.messages[0]?.content.type === 'text' ? prompt.messages[0].content.text : '';
    };
    const mentioning = async (text: string): Promise<Record<string, number>> =>
      (await getJson<ListResponse>(server, `/api/v1/specimens?q=${encodeURIComponent(`"${text}"`)}&facets=model&limit=1&lang=en`)).body.facets?.model ?? {};
    const many = Object.entries(await mentioning('demo'));
    expect(many.length, 'more labels mention "demo" than the prompt names').to.be.above(10);
    const listed = many.slice(0, 10).map(([label, count]) => `${label} (${count})`).join(', ');
    expect(await promptText('demo')).to.include(`Labels of the records that mention "demo", the first 10 of ${many.length}, with how many of those records carry each (not the label's total): ${listed}. Ask again`);
    expect(await promptText('Claude 3')).to.match(/Labels of the records that mention "Claude 3", with how many of those records carry each \(not the label's total\): Claude 3\.5 Sonnet \(\d+\), Claude 3 Opus \(\d+\)\. Ask again/);
    for (const [model, undated, label] of [['gpt-4o-2024-08-06', 'gpt-4o', 'GPT-4o'], ['claude-3-5-sonnet-20240620', 'claude-3-5-sonnet', 'Claude 3.5 Sonnet']] as const) {
      const text = await promptText(model);
      expect(text, model).to.include(`no record whose model label is exactly "${model}". No record mentions it either, so it was looked up without its date. Labels of the records that mention "${undated}", with how many`);
      expect(text, model).to.include(`${label} (${(await mentioning(undated))[label]})`);
    }
    expect(await promptText('no-such-model-20240620')).to.match(/No record mentions it either\. Related labels/);
  });

  it('words the prompts in Chinese when lang is zh, the default, with the archive\'s Chinese terms', async () => {
    const promptText = async (name: string, args: Record<string, string>): Promise<{ description: string | undefined; text: string }> => {
      const prompt = await client.getPrompt({ name, arguments: args });
      return { description: prompt.description, text: prompt.messages[0]?.content.type === 'text' ? prompt.messages[0].content.text : '' };
    };
    // Two English words in a row: an English sentence (a label or the JSON of a call is no more than one).
    const english = /[A-Za-z]{2,} [A-Za-z]{2,}/;
    for (const lang of [{}, { lang: 'zh' }] as Record<string, string>[]) {
      const cite = await promptText('cite_work', { id: 'svg-gpt-4-8d5be076', ...lang });
      expect(cite.description).to.equal('引用档案记录 svg-gpt-4-8d5be076');
      expect(cite.text).to.include('收录于模型作品档案馆').and.include('编纂日期').and.include('保留原始来源链接').and.not.match(english);
      const found = await promptText('first_work_of_model', { model: 'gpt-5', ...lang });
      expect(found.description).to.equal('GPT-5 在档案馆中的第一件作品');
      expect(found.text).to.match(/^模型作品档案馆收录的、由模型“GPT-5”创作的第一件作品是哪一件？档案馆中模型标签为“GPT-5”（询问时写作“gpt-5”；标签不分大小写）的有 \d+ 条藏品记录和 1 条时间线记录；/);
      expect(found.text).to.include('{"model":["GPT-5"],"sort":"oldest","limit":5,"lang":"zh"}').and.not.match(english);
      const missing = await promptText('first_work_of_model', { model: 'gpt-4o-2024-08-06', ...lang });
      expect(missing.text).to.match(/也没有记录提到它，因此去掉日期部分后又查了一次。提到“gpt-4o”的记录所带的模型标签，括号中是这些记录里带该标签的条数（不是该标签的总数）：GPT-4o（\d+）。/);
      expect(missing.text).to.not.match(english);
    }
    expect((await promptText('first_work_of_model', { model: 'demo' })).text).to.match(/提到“demo”的记录所带的模型标签（共 \d+ 个，这里列出前 10 个）/);
    expect((await promptText('cite_work', { id: 'svg-gpt-4-8d5be076', lang: 'en' })).text).to.match(/^Cite the archive record below\./);
  });

  it('names the model in first_work_of_model as the archive stores the label, whatever case it was asked in', async () => {
    const text = async (model: string): Promise<{ description: string | undefined; text: string }> => {
      const prompt = await client.getPrompt({ name: 'first_work_of_model', arguments: { model, lang: 'en' } });
      return { description: prompt.description, text: prompt.messages[0]?.content.type === 'text' ? prompt.messages[0].content.text : '' };
    };
    const asked = await text('gpt-4o');
    expect(asked.description).to.equal('The first archived work of GPT-4o');
    expect(asked.text).to.include('made by the model "GPT-4o"?').and.include('with the model label "GPT-4o" (asked as "gpt-4o"; labels match whatever their case)').and.include('"model":["GPT-4o"]');
    expect(asked.text).to.not.include('label "gpt-4o"');
    const exact = await text('GPT-4o');
    expect(exact.text).to.include('with the model label "GPT-4o";').and.not.include('asked as');
  });

  it('tells where a moved id went and why a withdrawn one left, in the tool, the resource and the prompt alike', async () => {
    const current = makeRecord({ date: '2019-01-01', model: 'Retired-Model' });
    const moved = makeRecord({ date: '2019-01-01', model: 'Retired-Model', kind: 'timeline' });
    const withdrawn = makeRecord({ date: '2019-01-02', model: 'Retired-Model' });
    await server.backend.store.putRecords([current, moved, withdrawn]);
    await server.backend.store.replaceRecords([], [{ id: moved.id, movedTo: current.id, reason: 'An earlier work now starts the timeline.' }]);
    await server.backend.store.deleteRecords([withdrawn.id], 'The author asked for it to be taken down.');
    const messages = async (id: string): Promise<string[]> => {
      const tool = await call('get_specimen', { id, lang: 'en' });
      const failure = (caught: unknown): string => (caught as McpError).message;
      return [
        tool.content[0]?.type === 'text' ? tool.content[0].text : '',
        await client.readResource({ uri: `archive://en/specimens/${id}` }).then(() => 'read', failure),
        await client.getPrompt({ name: 'cite_work', arguments: { id, lang: 'en' } }).then(() => 'cited', failure),
      ];
    };
    for (const message of await messages(moved.id)) expect(message).to.include(`moved to "${current.id}"`);
    for (const message of await messages(withdrawn.id)) expect(message).to.include('was withdrawn').and.include('taken down').and.include(withdrawn.sourceUrl);
    // An id that moved to a record since withdrawn: the move is told, then the withdrawal of where it led.
    const movedAway = makeRecord({ date: '2019-01-03', model: 'Retired-Model', kind: 'timeline' });
    const movedTo = makeRecord({ date: '2019-01-03', model: 'Retired-Model' });
    await server.backend.store.putRecords([movedAway, movedTo]);
    await server.backend.store.replaceRecords([], [{ id: movedAway.id, movedTo: movedTo.id, reason: 'An earlier work now starts the timeline.' }]);
    await server.backend.store.deleteRecords([movedTo.id], 'The author asked for it to be taken down.');
    for (const message of await messages(movedAway.id)) {
      expect(message).to.match(new RegExp(`The record "${movedAway.id}" moved to "${movedTo.id}", which was withdrawn on \\d{4}-\\d\\d-\\d\\d: The author asked for it to be taken down\\. The work was published at ${movedTo.sourceUrl.replaceAll('.', '\\.')}\\.$`));
    }
    // HTTP answers it as withdrawn (410), the move in movedVia.
    const http = await getJson<{ movedVia?: string[] }>(server, `/api/v1/specimens/${movedAway.id}`);
    expect(http.status).to.equal(410);
    expect(http.body.movedVia).to.deep.equal([movedTo.id]);
    await server.backend.store.deleteRecords([current.id]);
  });

  const MALFORMED_PARAMS: [string, Record<string, unknown> | undefined, RegExp][] = [
    ['tools/call', { name: 'search_specimens', arguments: 'notanobject' }, /^Invalid params for tools\/call: arguments must be an object, not a string\.$/],
    ['tools/call', { name: 'search_specimens', arguments: [1, 2] }, /arguments must be an object, not a list/],
    ['tools/call', undefined, /params is required/],
    ['prompts/get', { name: 'cite_work', arguments: { id: 5 } }, /^Invalid params for prompts\/get: arguments\.id must be a string, not a number\.$/],
    ['resources/read', {}, /^Invalid params for resources\/read: uri is required\.$/],
    ['tools/list', { cursor: 5 }, /cursor must be a string, not a number/],
  ];

  it('answers params that do not fit their method with InvalidParams (-32602) naming the parameter, over HTTP', async () => {
    for (const [method, params, message] of MALFORMED_PARAMS) {
      const response = await post(JSON.stringify({ jsonrpc: '2.0', id: 7, method, ...(params ? { params } : {}) }));
      const body = (await response.json()) as { id: number; error: { code: number; message: string } };
      expect(body.id, method).to.equal(7);
      expect(body.error.code, `${method} ${JSON.stringify(params)}`).to.equal(-32602);
      expect(body.error.message).to.match(message);
    }
    // In a batch, only the malformed request is refused.
    const batch = await post(JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'resources/read', params: {} }, { jsonrpc: '2.0', id: 2, method: 'ping' }]));
    const answers = (await batch.json()) as { id: number; error?: { code: number }; result?: unknown }[];
    expect(answers.find((answer) => answer.id === 1)?.error?.code).to.equal(-32602);
    expect(answers.find((answer) => answer.id === 2)?.result).to.deep.equal({});
  });

  it('answers malformed params with InvalidParams in memory too, through the SDK client', async () => {
    const context = { store: server.backend.store, search: server.backend.search, baseUrl: server.baseUrl };
    const mcp = createMcpServer(context, '1.0.0', { readsPerMinute: 0 }, { isUnavailable: () => false, logger: createLogger('error', () => undefined) });
    const memoryClient = new Client({ name: 'archive-test-client', version: '1.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverSide);
    await memoryClient.connect(clientSide);
    try {
      for (const [method, params, message] of MALFORMED_PARAMS) {
        const error = await memoryClient.request({ method, ...(params ? { params } : {}) } as ClientRequest, ResultSchema).then(() => undefined, (caught: unknown) => caught as McpError);
        expect(error?.code, method).to.equal(-32602);
        expect(error?.message).to.match(new RegExp(message.source.replace(/^\^/, '')));
      }
      expect((await memoryClient.readResource({ uri: 'archive://catalog' })).contents).to.have.length(1);
    } finally {
      await memoryClient.close();
    }
  });

  it('answers a POST as Streamable HTTP does in JSON mode: one object, a batch in order, 202 for notifications alone', async () => {
    const ping = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'ping' });
    const notification = { jsonrpc: '2.0', method: 'notifications/initialized' };
    const one = await post(JSON.stringify(ping(7)));
    expect(one.status).to.equal(200);
    expect(one.headers.get('content-type')).to.match(/^application\/json/);
    expect(await one.json()).to.deep.equal({ jsonrpc: '2.0', id: 7, result: {} });
    const listTools = { jsonrpc: '2.0', id: 'b', method: 'tools/list' };
    const batch = await post(JSON.stringify([listTools, notification, ping(3)]));
    const answers = (await batch.json()) as { id: unknown; result: { tools?: unknown[] } }[];
    expect(answers.map((answer) => answer.id), 'the requests\' order, the notification unanswered').to.deep.equal(['b', 3]);
    expect(answers[0]?.result.tools).to.have.length(3);
    // A batch with one request is answered with that response alone, as the SDK's transport answers it.
    expect(await (await post(JSON.stringify([notification, ping(4)]))).json()).to.deep.equal({ jsonrpc: '2.0', id: 4, result: {} });
    const accepted = await post(JSON.stringify(notification));
    expect(accepted.status).to.equal(202);
    expect(await accepted.text()).to.equal('');
    expect((await post(JSON.stringify([notification, notification]))).status).to.equal(202);
  });

  it('refuses a POST that does not accept both JSON and an event stream, a batch of over 20 messages, and initialize in a batch', async () => {
    for (const accept of ['application/json', 'text/event-stream', '*/*']) {
      const response = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), { Accept: accept });
      expect(response.status, accept).to.equal(406);
      expect(await response.json()).to.deep.include({ jsonrpc: '2.0', id: null }).and.to.have.nested.property('error.code', -32000);
    }
    const pings = (count: number) => JSON.stringify(Array.from({ length: count }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' })));
    expect(((await (await post(pings(20))).json()) as unknown[]).length).to.equal(20);
    const tooMany = await post(pings(21));
    expect(tooMany.status).to.equal(400);
    expect(await tooMany.json()).to.have.nested.property('error.code', -32600);
    const initializeInBatch = await post(`[${initialize('2025-11-25')},${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' })}]`);
    expect(initializeInBatch.status).to.equal(400);
    expect(await initializeInBatch.json()).to.have.nested.property('error.message').that.matches(/initialize request must be sent alone/);
  });

  it('answers a list call asked again from the results it kept, until the catalog changes', async () => {
    const searches = async (): Promise<number> => observations(await scrape(server.metrics.registry), 'archive_search_duration_seconds');
    const args = { q: 'lighthouse keeper', lang: 'en', limit: 3 };
    // A following index (Meilisearch) that confirms earlier writes meanwhile makes kept results stale: caught up first.
    await server.syncSearch();
    const before = await searches();
    const first = await call('search_specimens', args);
    const second = await call('search_specimens', args);
    const third = await call('search_specimens', { limit: '3', lang: 'en', q: 'lighthouse keeper' });
    expect(second).to.deep.equal(first);
    expect(third, 'the same call, its arguments written otherwise').to.deep.equal(first);
    // Kept when asked the second time (most calls are asked once), answered from it the third.
    expect((await searches()) - before, 'searches run').to.equal(2);
    await server.backend.store.putRecords([makeRecord({ date: '2026-11-02', title: { zh: '灯塔看守人', en: 'Lighthouse keeper at dusk' } })]);
    await server.syncSearch();
    const after = await call('search_specimens', args);
    expect((after.structuredContent as unknown as ListResponse).total, 'the new record is found').to.equal((first.structuredContent as unknown as ListResponse).total + 1);
    expect((await searches()) - before, 'a write makes kept results stale').to.equal(3);
  });

  it('answers bodies that are JSON but not JSON-RPC with Invalid Request (-32600)', async () => {
    for (const body of ['[]', '{"hello":1}', '5', '[{"hello":1}]', '[{"jsonrpc":"2.0","id":1,"method":"ping"},"x"]']) {
      const response = await post(body);
      expect(response.status, body).to.equal(400);
      const answer = (await response.json()) as { id: null; error: { code: number; message: string } };
      expect(answer.error.code, body).to.equal(-32600);
      expect(answer.error.message).to.match(/^Invalid Request: /);
      expect(answer.id).to.equal(null);
    }
    const parseError = (await (await post('{not json')).json()) as { error: { code: number } };
    expect(parseError.error.code).to.equal(-32700);
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
    // A compressed body is refused as the ingest endpoints refuse it: bodies are read as sent.
    const gzipped = await post(gzipSync(Buffer.from(initialize('2025-11-25'))), { 'Content-Encoding': 'gzip' });
    expect(gzipped.status).to.equal(415);
    expect(gzipped.headers.get('accept-encoding')).to.equal('identity');
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const response = await server.get('/mcp', { method });
      expect(response.status, method).to.equal(405);
      expect(response.headers.get('allow')).to.equal('POST, OPTIONS');
    }
  });
});
