import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { SourceDefinition } from '../../src/domain/sources.ts';
import type { SourceList } from '../../src/domain/source-list.ts';
import type { ListResponse } from '../../src/domain/specimens.ts';
import { validators } from '../../src/validation/schemas.ts';
import { makeRecord } from '../helpers/factories.ts';
import { callTool, connectMcpClient } from '../helpers/mcp-client.ts';
import { getJson, startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';

const run = promisify(execFile);

interface Problem {
  status: number;
  detail: string;
  errors: { parameter: string; message: string }[];
}

const MASTODON: SourceDefinition = { key: 'mastodon', label: { zh: '长毛象', en: 'Mastodon' }, hosts: ['mastodon.social', 'mastodon.online'], aliases: ['mastodon.online'], mediaHosts: ['files.mastodon.social'], handlePattern: '^/@([A-Za-z0-9_]+)/' };

/**
 * A source added to the store's source table (as `npm run sources -- add` does, from any process)
 * is a source like the built-in ones on every face: the API's filter, facets and source list,
 * the MCP tools and resources, the website's filter and pages, and the feeds, in both languages.
 */
describe('a source added to the source table, on every face', function () {
  this.timeout(30_000);
  let server: TestServer;
  let client: Client;
  const works = [1, 2, 3].map((index) =>
    makeRecord({ source: 'mastodon', sourceUrl: `https://mastodon.social/@fedi_artist/11${index}`, author: '@fedi_artist', date: `2026-10-0${index}`, updated: '2026-11-23', title: { zh: `联邦宇宙作品 ${index}`, en: `Fediverse work ${index}` } }),
  );
  const timeline = { ...makeRecord({ source: 'mastodon', sourceUrl: 'https://mastodon.social/@fedi_artist/200', kind: 'timeline', date: '2026-09-30' }) };

  before(async () => {
    server = await startTestServer({ demo: true });
    client = await connectMcpClient(server.baseUrl);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  const call = (name: string, args: Record<string, unknown>) => callTool(client, name, args);
  const html = async (path: string) => {
    const response = await server.get(path, { headers: { Accept: 'text/html' } });
    return { status: response.status, text: await response.text() };
  };
  /** The options of the website's source filter: value, text and whether it is selected. */
  const sourceOptions = (page: string) => {
    const select = /<select name="source">([\s\S]*?)<\/select>/.exec(page)?.[1] ?? '';
    return [...select.matchAll(/<option value="([^"]*)"( selected)?[^>]*>([^<]*)<\/option>/g)].map((match) => ({ value: match[1], selected: match[2] !== undefined, text: match[3] }));
  };
  /** Polls a list until it holds `total` records (a search engine that follows the store takes a moment). */
  const listed = async (path: string, total: number): Promise<ListResponse> => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const { status, body } = await getJson<ListResponse>(server, path);
      if (status === 200 && body.total === total) return body;
      if (Date.now() > deadline) throw new Error(`${path} answered ${status} with ${JSON.stringify(body).slice(0, 300)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('before it is added, its key is a 400 naming source and the keys there are', async () => {
    const { status, body } = await getJson<Problem>(server, '/api/v1/specimens?source=mastodon');
    expect(status).to.equal(400);
    expect(body.errors).to.have.length(1);
    expect(body.errors[0]?.parameter).to.equal('source');
    expect(body.errors[0]?.message).to.match(/^must be one of: bilibili, codepen, github, hn, huggingface, reddit, weibo, x, youtube, web \(the archive's sources; "mastodon" is not\)$/);
    const sources = (await getJson<SourceList>(server, '/api/v1/sources')).body;
    expect(sources.items.map((source) => source.key)).to.not.include('mastodon');
  });

  it('once added, is listed by /api/v1/sources with its labels and hosts, and a new ETag', async () => {
    const before = await server.get('/api/v1/sources');
    const etag = before.headers.get('etag') ?? '';
    expect((await server.get('/api/v1/sources', { headers: { 'If-None-Match': etag } })).status).to.equal(304);
    await server.backend.sources.putSource(MASTODON);
    await server.backend.store.putRecords([...works, timeline]);
    await server.syncSearch();
    const response = await server.get('/api/v1/sources', { headers: { 'If-None-Match': etag } });
    expect(response.status).to.equal(200);
    const list = (await response.json()) as SourceList;
    expect(validators.sourceList(list), JSON.stringify(validators.sourceList.errors)).to.equal(true);
    expect(list.items.find((source) => source.key === 'mastodon')).to.deep.equal({ key: 'mastodon', label: { zh: '长毛象', en: 'Mastodon' }, hosts: ['mastodon.social', 'mastodon.online'] });
    expect(list.items.at(-1)).to.deep.equal({ key: 'web', label: { zh: '网页', en: 'Web' }, hosts: [] });
    expect(list.total).to.equal(list.items.length);
    const refused = await getJson<Problem>(server, '/api/v1/sources?lang=en');
    expect(refused.status).to.equal(400);
    expect(refused.body.errors.map((error) => error.parameter)).to.deep.equal(['lang']);
  });

  it('filters the search and the timeline by its key, counts it in the facets, and still refuses an unknown key', async () => {
    const found = await listed('/api/v1/specimens?source=mastodon&facets=source,kind&lang=en', 4);
    expect(found.items.every((item) => (item as unknown as { source: string }).source === 'mastodon')).to.equal(true);
    // A facet is counted with its own filter left out: the source facet counts every source, the kind facet only these records.
    expect(found.facets?.source?.mastodon).to.equal(4);
    expect(found.facets?.kind).to.deep.equal({ gallery: 3, timeline: 1 });
    const github = (await getJson<ListResponse>(server, '/api/v1/specimens?source=github&kind=gallery&limit=1')).body.total;
    expect(github).to.be.above(0);
    await listed('/api/v1/specimens?source=mastodon,github&kind=gallery', github + 3);
    const all = (await getJson<ListResponse>(server, '/api/v1/specimens?facets=source&limit=1')).body;
    expect(all.facets?.source?.mastodon).to.equal(4);
    expect((await listed('/api/v1/timeline?source=mastodon', 1)).items[0]?.id).to.equal(timeline.id);
    const unknown = await getJson<Problem>(server, '/api/v1/specimens?source=mastodon,myspace');
    expect(unknown.status).to.equal(400);
    expect(unknown.body.errors).to.deep.equal([{ parameter: 'source', message: 'must be one of: bilibili, codepen, github, hn, huggingface, mastodon, reddit, weibo, x, youtube, web (the archive\'s sources; "myspace" is not)' }]);
    expect(unknown.body.detail).to.equal('Invalid parameter: source.');
    // A value of the wrong form is an unknown key too, said once; too many values is said as well.
    const malformed = await getJson<Problem>(server, '/api/v1/specimens?source=X,github');
    expect(malformed.body.errors).to.deep.equal([{ parameter: 'source', message: 'must be one of: bilibili, codepen, github, hn, huggingface, mastodon, reddit, weibo, x, youtube, web (the archive\'s sources; "X" is not)' }]);
    const tooMany = await getJson<Problem>(server, `/api/v1/specimens?source=${Array.from({ length: 51 }, () => 'x').join(',')},myspace`);
    expect(tooMany.body.errors).to.deep.equal([{ parameter: 'source', message: 'must hold at most 50 entries; also must be one of: bilibili, codepen, github, hn, huggingface, mastodon, reddit, weibo, x, youtube, web (the archive\'s sources; "myspace" is not)' }]);
    // Two problems of one parameter: one entry, and one parameter in the detail, as ingest says it too.
    expect(tooMany.body.detail).to.equal('Invalid parameter: source.');
  });

  it('is a value of the MCP tools\' source filter, and the catalog and facets resources name it in both languages', async () => {
    const { tools } = await client.listTools();
    // Listed once, in search_specimens; get_timeline points there, and refuses a key not in the table alike.
    expect((tools.find((tool) => tool.name === 'search_specimens')?.inputSchema.properties?.source as { items: { enum: string[] } }).items.enum).to.include('mastodon');
    expect((tools.find((tool) => tool.name === 'get_timeline')?.inputSchema.properties?.source as { description: string }).description).to.equal('Source sites: the keys of search_specimens.');
    const refusedOnTimeline = await call('get_timeline', { source: ['myspace'] });
    expect((refusedOnTimeline.content[0] as { text: string }).text).to.match(/- source: must be one of: .*mastodon.*"myspace" is not/);
    const search = await call('search_specimens', { source: ['mastodon'], lang: 'en' });
    expect(search.isError ?? false).to.equal(false);
    expect((search.structuredContent as { total: number }).total).to.equal(4);
    const onTimeline = await call('get_timeline', { source: 'mastodon' });
    expect((onTimeline.structuredContent as { items: { id: string }[] }).items.map((item) => item.id)).to.deep.equal([timeline.id]);
    const refused = await call('search_specimens', { source: ['myspace'] });
    expect(refused.isError).to.equal(true);
    expect((refused.content[0] as { text: string }).text).to.match(/- source: must be one of: .*mastodon.*"myspace" is not/);
    const catalog = JSON.parse(((await client.readResource({ uri: 'archive://catalog' })).contents[0] as { text: string }).text) as { allowedValues: { source: string[] }; sources: { key: string; label: { zh: string; en: string } }[] };
    expect(catalog.allowedValues.source).to.include('mastodon');
    expect(catalog.sources).to.deep.include({ key: 'mastodon', label: { zh: '长毛象', en: 'Mastodon' } });
    const facets = JSON.parse(((await client.readResource({ uri: 'archive://facets' })).contents[0] as { text: string }).text) as { sources: Record<string, number>; sourceLabels: Record<string, { zh: string; en: string }> };
    expect(facets.sources.mastodon).to.equal(4);
    expect(facets.sourceLabels.mastodon).to.deep.equal({ zh: '长毛象', en: 'Mastodon' });
    expect(facets.sourceLabels.github).to.deep.equal({ zh: 'GitHub', en: 'GitHub' });
  });

  it('is an option of the website\'s source filter in both languages, which filters the gallery and the timeline', async () => {
    // A count follows its label in brackets of the page's language.
    for (const [prefix, label, count] of [['', '长毛象', (n: number) => `（${n}）`], ['/en', 'Mastodon', (n: number) => ` (${n})`]] as const) {
      const gallery = await html(`${prefix}/?source=mastodon`);
      expect(gallery.status, prefix).to.equal(200);
      const option = sourceOptions(gallery.text).find((entry) => entry.value === 'mastodon');
      expect(option, prefix).to.deep.equal({ value: 'mastodon', selected: true, text: `${label}${count(4)}` });
      const linked = new Set([...gallery.text.matchAll(/\/specimens\/([a-z0-9-]+)\//g)].map((match) => match[1]));
      expect([...linked].sort(), prefix).to.deep.equal([...works, timeline].map((work) => work.id).sort());
      const onTimeline = await html(`${prefix}/timeline/?source=mastodon`);
      expect(onTimeline.text).to.include(`/specimens/${timeline.id}/`);
      expect(sourceOptions(onTimeline.text).find((entry) => entry.value === 'mastodon')?.text).to.equal(`${label}${count(1)}`);
      const refused = await html(`${prefix}/?source=myspace`);
      expect(refused.status).to.equal(400);
      expect(refused.text).to.include('mastodon');
    }
  });

  it('names it by its label on record pages and in the feeds, in both languages', async () => {
    const newest = works[2];
    for (const [prefix, label] of [['', '长毛象'], ['/en', 'Mastodon']] as const) {
      const page = await html(`${prefix}/specimens/${newest?.id}/`);
      expect(page.status).to.equal(200);
      expect(page.text).to.include(label);
      const feed = await (await server.get(`${prefix}/feed.atom`)).text();
      expect(feed).to.include(prefix ? 'Original source: Mastodon' : '原始来源：长毛象');
    }
  });

  it('is known to the running service at once when npm run sources adds it from another process', async function () {
    if (process.env.ARCHIVE_STORE === 'mongo') this.skip(); // the command opens the data folder's SQLite file
    expect((await getJson<Problem>(server, '/api/v1/specimens?source=pixiv')).status).to.equal(400);
    const added = await run(process.execPath, ['--import', 'tsx', 'scripts/sources.ts', 'add', '--key', 'pixiv', '--host', 'pixiv.net', '--label-zh', 'Pixiv（插画）', '--label-en', 'Pixiv'], { env: { ...process.env, ARCHIVE_DATA_DIR: server.dataDir } });
    expect(added.stdout).to.match(/added source pixiv/);
    expect((await getJson<ListResponse>(server, '/api/v1/specimens?source=pixiv')).body.total).to.equal(0);
    expect((await getJson<SourceList>(server, '/api/v1/sources')).body.items.find((source) => source.key === 'pixiv')?.label).to.deep.equal({ zh: 'Pixiv（插画）', en: 'Pixiv' });
    expect(sourceOptions((await html('/')).text).find((option) => option.value === 'pixiv')?.text).to.equal('Pixiv（插画，0）');
  });

  it('is gone from every face once removed: its key is a 400 again and its records show the key', async () => {
    expect(await server.backend.sources.removeSource('mastodon')).to.equal(true);
    const { status, body } = await getJson<Problem>(server, '/api/v1/specimens?source=mastodon');
    expect(status).to.equal(400);
    expect(body.errors[0]?.parameter).to.equal('source');
    expect((await getJson<SourceList>(server, '/api/v1/sources')).body.items.map((source) => source.key)).to.not.include('mastodon');
    expect(sourceOptions((await html('/en/')).text).map((option) => option.value)).to.not.include('mastodon');
    expect((await html(`/en/specimens/${works[0]?.id}/`)).text).to.include('mastodon');
  });
});
