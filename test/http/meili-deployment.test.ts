/**
 * The archive's app over a real Meilisearch (MEILI_URL) beside the embedded engine:
 * - over the demo catalog both engines give the same answers: the README's example requests
 *   byte for byte, MCP and website pages alike, and the same matches for every Chinese substring,
 *   short word and prefix, filter, order and page;
 * - the response cache of an app whose index follows the store never keeps an answer computed
 *   before the index caught up;
 * - reached through a reverse proxy whose upstream is gone, every reader (API, website, MCP,
 *   /readyz) is told the service is unavailable (503 with Retry-After, or an MCP tool error saying
 *   so), never a 500 and never an internal address; answers resume once the upstream is back;
 * - with both indexes deleted under it (and then re-created by a document write with Meilisearch's
 *   default settings) every reader is told the same, and the index sync restores and refills them;
 * - indexes deleted between two starts are filled at once by the next start's index sync, and
 *   /readyz is not ready until then;
 * - the index sync logs an outage's first failure in full, then one line per doubled wait, and
 *   its recovery once;
 * - documents written by an older document mapping are written again by the index sync's start,
 *   without an operator, while searches and /readyz keep answering.
 */
import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Meilisearch } from 'meilisearch';
import { inspectIndex, SEARCH_REFILL_CHECKPOINT, SEARCH_SYNC_CHECKPOINT, startSearchSync, syncOnce } from '../../indexer/search-sync.ts';
import { openBackend } from '../../src/backend.ts';
import type { Backend } from '../../src/backend.ts';
import { loadDemoIfEmpty, readDemoWorks } from '../../src/demo/seed.ts';
import type { SearchQuery } from '../../src/domain/search-query.ts';
import { createApp } from '../../src/http/app.ts';
import { SEARCH_INDEX_FILLING } from '../../src/http/health/router.ts';
import { createLogger } from '../../src/logger.ts';
import { UNAVAILABLE_TEXT } from '../../src/mcp/server.ts';
import { MeiliSearchIndex, meiliClient } from '../../src/search/meili/meili-search.ts';
import { PendingSearchIndex } from '../../src/search/meili/pending-index.ts';
import { deleteIndex } from '../../src/search/meili/rebuild.ts';
import { indexName } from '../../src/search/meili/settings.ts';
import { isMeiliUnavailable } from '../../src/search/meili/unavailable.ts';
import { LANGS } from '../../src/domain/record.ts';
import { eventually } from '../helpers/backend.ts';
import { makeRecord } from '../helpers/factories.ts';
import { closedAddress, dropMeiliIndexes, sharedMeili, startMeiliProxy, uniqueMeiliOptions } from '../helpers/meili.ts';
import type { MeiliProxy } from '../helpers/meili.ts';
import { temporaryDataDir } from '../helpers/server.ts';
import { errorOf } from '../helpers/error-of.ts';

const shared = sharedMeili();

/** An app over a backend on 127.0.0.1:0, with the base URL its links use. */
async function serveApp(backend: Backend, dataDir: string, options: { baseUrl?: string; cacheBytes?: number; logs?: string[] } = {}): Promise<{ base: string; close: () => Promise<void> }> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const logs = options.logs;
  const app = createApp(
    { baseUrl: options.baseUrl ?? base, mediaDir: join(dataDir, 'media'), responseCacheBytes: options.cacheBytes ?? 0, cacheMaxAgeSeconds: 60, allowedOrigins: [] },
    backend,
    createLogger('warn', logs ? (line) => logs.push(line) : () => {}),
  );
  server.on('request', app.callback());
  return {
    base,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Every reader of the search index, each with a query of its own (no cached answer can hide it):
 * the API and a website page answer 503 with Retry-After, /readyz too, and the MCP search tool an
 * error result saying to retry; none shows `hidden` (an internal address).
 */
async function expectEveryReaderUnavailable({ base, mcp, hidden }: { base: string; mcp: Client; hidden?: string }, q: string, filters = ''): Promise<void> {
  const api = await fetch(`${base}/api/v1/specimens?q=${q}&lang=en${filters}`);
  expect(api.status).to.equal(503);
  expect(api.headers.get('retry-after')).to.equal('5');
  expect(api.headers.get('content-type')).to.match(/^application\/problem\+json/);
  const problem = (await api.json()) as { type: string; detail: string };
  expect(problem.type).to.equal(`${base}/problems/service-unavailable`);
  if (hidden) expect(JSON.stringify(problem)).to.not.include(hidden);
  const page = await fetch(`${base}/en/?q=${q}${filters}`, { headers: { Accept: 'text/html' } });
  expect(page.status).to.equal(503);
  expect(page.headers.get('retry-after')).to.equal('5');
  const ready = await fetch(`${base}/readyz`);
  expect([ready.status, ready.headers.get('retry-after')]).to.deep.equal([503, '5']);
  const tool = (await mcp.callTool({ name: 'search_specimens', arguments: { q, lang: 'en' } })) as CallToolResult;
  expect(tool.isError).to.equal(true);
  expect(tool.content).to.deep.equal([{ type: 'text', text: UNAVAILABLE_TEXT }]);
}

if (!shared) {
  console.log('SKIPPED Meilisearch deployment suite (the app over a real Meilisearch): set MEILI_URL to run it');
} else {
  describe('the demo catalog on Meilisearch and on the embedded engine', function () {
    this.timeout(120_000);
    const options = uniqueMeiliOptions(shared, 'agree');
    const links = 'https://archive.example';
    let dataDir: string;
    let embedded: Backend;
    let meili: Backend;
    let servers: { base: string; close: () => Promise<void> }[] = [];

    before(async () => {
      dataDir = temporaryDataDir();
      const databaseFile = join(dataDir, 'archive.sqlite');
      // One store, two search indexes: FTS5 written with the records, and Meilisearch following them.
      embedded = await openBackend({ databaseFile }, { migrate: true });
      await loadDemoIfEmpty(embedded.store, join(dataDir, 'media'), createLogger('silent'));
      meili = await openBackend({ databaseFile, search: { kind: 'meili', ...options } }, { migrate: false });
      await syncOnce(meili.store, meili.search);
      servers = [await serveApp(embedded, dataDir, { baseUrl: links }), await serveApp(meili, dataDir, { baseUrl: links })];
    });
    after(async () => {
      for (const server of servers) await server.close();
      await meili?.close();
      await embedded?.close();
      await dropMeiliIndexes(options);
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    /** The same path from both apps: status, type and body. */
    async function both(path: string): Promise<{ status: number; type: string | null; body: string }[]> {
      return Promise.all(
        servers.map(async ({ base }) => {
          const response = await fetch(`${base}${path}`, { headers: { Accept: path.startsWith('/api/') ? 'application/json' : 'text/html' } });
          return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
        }),
      );
    }

    it("answers the README's example requests alike, and the pages after them", async () => {
      const readme = readFileSync('README.md', 'utf8');
      const paths = [...readme.matchAll(/curl -s '(http:\/\/localhost:8080\/api\/[^']+)'/g)].map((match) => new URL(match[1] ?? '').pathname + new URL(match[1] ?? '').search);
      expect(paths.length).to.be.at.least(5);
      for (const path of paths) {
        const [fromEmbedded, fromMeili] = await both(path);
        expect(fromEmbedded?.status, path).to.equal(200);
        expect(fromMeili?.status, path).to.equal(200);
        // The same answer but for `next`: a cursor is opaque and holds the engine's own position.
        const [a, b] = [fromEmbedded, fromMeili].map((answer) => JSON.parse(answer?.body ?? '{}') as { next?: string });
        expect({ ...b, next: undefined }, path).to.deep.equal({ ...a, next: undefined });
        expect(b?.next === undefined, path).to.equal(a?.next === undefined);
        if (a?.next && b?.next) {
          const following = await Promise.all(servers.map(async ({ base }, i) => (await fetch(`${base}${path}&cursor=${encodeURIComponent((i === 0 ? a.next : b.next) ?? '')}`)).json()));
          expect({ ...(following[1] as object), next: undefined }, `${path} next page`).to.deep.equal({ ...(following[0] as object), next: undefined });
        }
      }
    });

    it('renders the same website pages and MCP results', async () => {
      for (const path of ['/en/?q=pelican', `/?q=${encodeURIComponent('鹈鹕')}`, '/en/?format=svg&year=2025', '/en/timeline/', '/?q=lighthouse&page=1']) {
        const [fromEmbedded, fromMeili] = await both(path);
        expect(fromEmbedded?.status, path).to.equal(200);
        expect(fromMeili?.body === fromEmbedded?.body, `${path} differs`).to.equal(true);
      }
      const results = await Promise.all(
        servers.map(async ({ base }) => {
          const client = new Client({ name: 'archive-agreement-test', version: '1.0.0' });
          await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
          try {
            return await Promise.all([client.callTool({ name: 'search_specimens', arguments: { q: 'pelican', lang: 'en' } }), client.callTool({ name: 'get_timeline', arguments: { lang: 'zh', limit: 5 } })]);
          } finally {
            await client.close();
          }
        }),
      );
      expect(results[1]).to.deep.equal(results[0]);
    });

    it('matches the same records for every Chinese substring, short word and prefix, filter, order and page', async () => {
      const works = await readDemoWorks();
      const queries: SearchQuery[] = [];
      const ask = (lang: 'zh' | 'en', overrides: Partial<SearchQuery>): number => queries.push({ lang, filters: {}, order: 'relevance', offset: 0, limit: 50, ...overrides });
      for (const work of works) {
        for (const run of work.title.zh.match(/\p{Script=Han}+/gu) ?? []) {
          const characters = [...run];
          for (let size = 2; size <= 4; size += 1) for (let at = 0; at + size <= characters.length; at += 1) ask('zh', { text: characters.slice(at, at + size).join('') });
        }
        for (const word of work.title.en.toLowerCase().match(/[a-z]+/g) ?? []) {
          // Words below 5 letters take no typos, so both engines match them exactly, or as a prefix when last.
          if (word.length <= 4) ask('en', { text: word });
          if (word.length >= 5) ask('en', { text: word.slice(0, 4) });
        }
      }
      const asSet = (ids: readonly string[]): string[] => [...ids].sort();
      for (const query of queries) {
        const [a, b] = await Promise.all([embedded.search.search(query), meili.search.search(query)]);
        expect({ total: b.total, ids: asSet(b.ids) }, JSON.stringify(query)).to.deep.equal({ total: a.total, ids: asSet(a.ids) });
      }
      const lists: SearchQuery[] = [];
      for (const format of ['svg', 'animation', '3d', 'game', 'video'] as const) for (const order of ['newest', 'oldest'] as const) lists.push({ lang: 'en', filters: { format: [format] }, order, offset: 0, limit: 50 });
      for (const year of ['2023', '2024', '2025', '2026']) lists.push({ lang: 'zh', filters: { year: [year], kind: ['gallery'] }, order: 'relevance', offset: 0, limit: 50 });
      for (const offset of [0, 5, 17, 40]) for (const limit of [1, 7, 20]) lists.push({ lang: 'en', filters: {}, order: 'newest', offset, limit });
      for (const query of lists) {
        const [a, b] = await Promise.all([embedded.search.search(query), meili.search.search(query)]);
        expect(b, JSON.stringify(query)).to.deep.equal(a);
      }
    });
  });

  describe('a Meilisearch behind a proxy that loses its upstream', function () {
    this.timeout(60_000);
    const options = uniqueMeiliOptions(shared, 'outage');
    let proxy: MeiliProxy;
    let dataDir: string;
    let backend: Backend;
    let server: Server;
    let base: string;
    let mcp: Client;
    const logs: string[] = [];

    before(async () => {
      proxy = await startMeiliProxy(shared.url);
      dataDir = temporaryDataDir();
      backend = await openBackend({ databaseFile: join(dataDir, 'archive.sqlite'), search: { kind: 'meili', ...options, url: proxy.url } }, { migrate: true });
      await backend.store.putRecords([makeRecord({ title: { zh: '骑自行车的鹈鹕', en: 'A pelican riding a bicycle' } }), makeRecord({ title: { zh: '旋转的灯塔', en: 'Rotating lighthouse' } })]);
      await syncOnce(backend.store, backend.search);
      server = createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const app = createApp({ baseUrl: base, mediaDir: join(dataDir, 'media'), responseCacheBytes: 0, cacheMaxAgeSeconds: 60, allowedOrigins: [] }, backend, createLogger('warn', (line) => logs.push(line)));
      server.on('request', app.callback());
      mcp = new Client({ name: 'archive-outage-test', version: '1.0.0' });
      await mcp.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    });

    after(async () => {
      await mcp?.close();
      server?.closeAllConnections();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      await backend?.close();
      await proxy?.close();
      await dropMeiliIndexes(options);
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    const search = async (q: string): Promise<CallToolResult> => (await mcp.callTool({ name: 'search_specimens', arguments: { q, lang: 'en' } })) as CallToolResult;

    const expectUnavailable = (q: string): Promise<void> => expectEveryReaderUnavailable({ base, mcp, hidden: proxy.url }, q);

    it('answers through the proxy while the upstream is there', async () => {
      const api = await fetch(`${base}/api/v1/specimens?q=pelican&lang=en`);
      expect(api.status).to.equal(200);
      expect(((await api.json()) as { total: number }).total).to.equal(1);
      expect((await search('lighthouse')).structuredContent).to.include({ total: 1 });
    });

    it('answers 503 with Retry-After while the proxy serves its HTML 502 page, and recovers', async () => {
      proxy.setUpstream(await closedAddress());
      const raw = await errorOf(() => new Meilisearch({ host: proxy.url }).health());
      expect(raw).to.be.instanceOf(SyntaxError);
      await expectUnavailable('bicycle');
      proxy.setUpstream(shared.url);
      expect((await fetch(`${base}/api/v1/specimens?q=bicycle&lang=en`)).status).to.equal(200);
      expect(logs.some((line) => line.includes('request failed'))).to.equal(false);
    });

    it('answers 503 for an HTML 504 gateway timeout too', async () => {
      proxy.setUpstream(await closedAddress());
      proxy.setOutage('html-504');
      await expectUnavailable('rotating');
      proxy.setUpstream(shared.url);
      proxy.setOutage('html-502');
    });

    it('has the index sync log the first failure in full, then a line per doubled wait, and its recovery once', async () => {
      proxy.setUpstream(await closedAddress());
      const record = makeRecord({ title: { zh: '断线时发表的作品', en: 'Published while unreachable' } });
      await backend.store.putRecords([record]);
      const lines: string[] = [];
      const sync = startSearchSync(backend.store, backend.search, createLogger('info', (line) => lines.push(line)), { pollMs: 20, retryDelayMs: 40 });
      type Line = { level: string; msg: string; error?: { stack?: string }; retryInMs?: number; failures?: number; reason?: string; ms?: number };
      const logged = (): Line[] => lines.map((line) => JSON.parse(line) as Line);
      try {
        await eventually(async () => logged().length >= 4, 20_000, 'the sync did not fail four times');
        proxy.setUpstream(shared.url);
        await eventually(async () => logged().some((line) => line.msg === 'search index sync working again'), 20_000, 'the sync did not recover');
        await eventually(async () => (await backend.search.search({ lang: 'en', text: 'unreachable', filters: {}, order: 'relevance', offset: 0, limit: 5 })).total === 1, 20_000, 'the record was not indexed');
      } finally {
        await sync.stop();
      }
      const failed = logged().filter((line) => line.msg.startsWith('search index sync failed'));
      const [first, ...later] = failed;
      expect(first).to.deep.include({ level: 'error', msg: 'search index sync failed; retrying', retryInMs: 40 });
      expect(first?.error?.stack).to.be.a('string');
      expect(later.length).to.be.at.least(3);
      expect(later.map((line) => [line.level, line.msg, line.failures, line.retryInMs])).to.deep.equal(later.map((_, i) => ['warn', 'search index sync failed again', i + 2, 40 * 2 ** (i + 1)]));
      for (const line of later) {
        expect(line.error, 'no stack after the first').to.equal(undefined);
        expect(line.reason).to.be.a('string').and.not.equal('');
      }
      const recovered = logged().filter((line) => line.msg === 'search index sync working again');
      expect(recovered).to.have.length(1);
      expect(recovered[0]).to.deep.include({ level: 'info', failures: failed.length });
    });

    it('answers 503 when nothing listens at the address any more', async () => {
      await proxy.close();
      const raw = await errorOf(() => new Meilisearch({ host: proxy.url }).health());
      expect(isMeiliUnavailable(raw)).to.equal(true);
      await expectUnavailable('riding');
    });
  });

  describe('indexes deleted while the service runs', function () {
    this.timeout(60_000);
    const options = uniqueMeiliOptions(shared, 'lost');
    let dataDir: string;
    let backend: Backend;
    let app: { base: string; close: () => Promise<void> };
    let mcp: Client;
    const logs: string[] = [];

    before(async () => {
      dataDir = temporaryDataDir();
      backend = await openBackend({ databaseFile: join(dataDir, 'archive.sqlite'), search: { kind: 'meili', ...options } }, { migrate: true });
      await backend.store.putRecords([
        makeRecord({ model: 'Lost-Model', title: { zh: '失而复得的灯塔', en: 'A lighthouse found again' } }),
        makeRecord({ model: 'Lost-Model', title: { zh: '失而复得的鹈鹕', en: 'A pelican found again' } }),
        makeRecord({ title: { zh: '另一座灯塔', en: 'Another lighthouse' } }),
      ]);
      await syncOnce(backend.store, backend.search);
      app = await serveApp(backend, dataDir, { logs });
      mcp = new Client({ name: 'archive-lost-index-test', version: '1.0.0' });
      await mcp.connect(new StreamableHTTPClientTransport(new URL(`${app.base}/mcp`)));
    });
    after(async () => {
      await mcp?.close();
      await app?.close();
      await backend?.close();
      await dropMeiliIndexes(options);
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    const total = async (query: string): Promise<number> => {
      const response = await fetch(`${app.base}/api/v1/specimens?${query}`);
      return response.status === 200 ? ((await response.json()) as { total: number }).total : -response.status;
    };

    it('answers 503 while they are gone or hold Meilisearch\'s defaults, and the index sync restores and refills them', async () => {
      const client = meiliClient(options);
      await Promise.all(LANGS.map((lang) => deleteIndex(client, indexName(lang, options.indexPrefix))));
      await expectEveryReaderUnavailable({ base: app.base, mcp }, 'found');
      // A publish: the sync's document write re-creates each index with Meilisearch's default settings.
      await backend.store.putRecords([makeRecord({ model: 'Lost-Model', title: { zh: '又一座灯塔', en: 'One more lighthouse' } })]);
      await syncOnce(backend.store, backend.search);
      expect((await client.index(indexName('en', options.indexPrefix)).getSettings()).filterableAttributes).to.deep.equal([]);
      await expectEveryReaderUnavailable({ base: app.base, mcp }, 'lighthouse', '&model=Lost-Model');
      await expectEveryReaderUnavailable({ base: app.base, mcp }, 'again');
      expect(logs.filter((line) => line.includes('request failed')), 'no 500').to.deep.equal([]);

      const syncLogs: string[] = [];
      const sync = startSearchSync(backend.store, backend.search, createLogger('info', (line) => syncLogs.push(line)), { pollMs: 50, retryDelayMs: 100 });
      try {
        await eventually(async () => (await fetch(`${app.base}/readyz`)).status === 200 && (await total('lang=en')) === 4, 30_000, 'the indexes were not restored');
      } finally {
        await sync.stop();
      }
      expect(await total('q=lighthouse&lang=en&model=Lost-Model')).to.equal(2);
      expect(await total(`q=${encodeURIComponent('灯塔')}&lang=zh`)).to.equal(3);
      const warnings = syncLogs.map((line) => JSON.parse(line) as { level: string; msg: string; restored?: { index: string; was: string }[] }).filter((line) => line.level === 'warn');
      expect(warnings.map((line) => line.msg)).to.include('search index was missing or lacked its settings (deleted while the service ran?): restored it, and the sync writes every record to it again');
      expect(warnings.flatMap((line) => line.restored ?? []).map((restored) => restored.was)).to.deep.equal(['unusable', 'unusable']);
    });

    it('are restored in a process that started while Meilisearch could not be reached, once it has opened them', async () => {
      const pending = new PendingSearchIndex(() => MeiliSearchIndex.open(options), new Error('not reachable at the start'), { failed: () => {}, opened: () => {} }, [10]);
      try {
        await eventually(async () => pending.isOpen, 10_000, 'never opened');
        await Promise.all(LANGS.map((lang) => deleteIndex(meiliClient(options), indexName(lang, options.indexPrefix))));
        expect(await inspectIndex(backend.store, pending, createLogger('silent'))).to.equal('refill');
        expect((await meiliClient(options).index(indexName('zh', options.indexPrefix)).getSettings()).filterableAttributes).to.include('model');
      } finally {
        await pending.close();
      }
    });
  });

  describe('indexes deleted between two starts', function () {
    this.timeout(60_000);
    const options = uniqueMeiliOptions(shared, 'restart');
    let dataDir: string;
    const opened: Backend[] = [];
    let app: { base: string; close: () => Promise<void> } | undefined;

    before(() => {
      dataDir = temporaryDataDir();
    });
    after(async () => {
      await app?.close();
      for (const backend of opened) await backend.close();
      await dropMeiliIndexes(options);
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    const open = async (): Promise<Backend> => {
      const backend = await openBackend({ databaseFile: join(dataDir, 'archive.sqlite'), search: { kind: 'meili', ...options } }, { migrate: true });
      opened.push(backend);
      return backend;
    };

    it('a start that creates them empty fills them at once, saying so, and is not ready until then', async () => {
      const first = await open();
      await first.store.putRecords(Array.from({ length: 12 }, (_, i) => makeRecord({ title: { zh: `重启前的灯塔${i}`, en: `Lighthouse before the restart ${i}` } })));
      await syncOnce(first.store, first.search);
      await first.close();
      const client = meiliClient(options);
      await Promise.all(LANGS.map((lang) => deleteIndex(client, indexName(lang, options.indexPrefix))));

      // The next start creates both indexes with their settings; the sync's checkpoint is at the newest change.
      const second = await open();
      app = await serveApp(second, dataDir);
      const base = app.base;
      const ready = await fetch(`${base}/readyz`);
      expect([ready.status, ready.headers.get('retry-after')]).to.deep.equal([503, '5']);
      expect(((await ready.json()) as { detail: string }).detail).to.equal(SEARCH_INDEX_FILLING);
      expect((await syncOnce(second.store, second.search)).upserted, 'the feed holds nothing new').to.equal(0);

      const logs: string[] = [];
      const sync = startSearchSync(second.store, second.search, createLogger('info', (line) => logs.push(line)), { pollMs: 50, retryDelayMs: 100 });
      const total = async (): Promise<number> => ((await (await fetch(`${base}/api/v1/specimens?q=lighthouse&lang=en`)).json()) as { total: number }).total;
      try {
        await eventually(async () => (await fetch(`${base}/readyz`)).status === 200, 30_000, 'never ready');
        expect(await total()).to.equal(12);
      } finally {
        await sync.stop();
      }
      const lines = logs.map((line) => JSON.parse(line) as { level: string; msg: string; documents?: Record<string, number>; records?: number });
      const warning = lines.find((line) => line.level === 'warn');
      expect(warning).to.deep.include({ msg: 'search index holds far fewer documents than the store holds records (created empty, or emptied): the sync writes every record to it again', documents: { zh: 0, en: 0 }, records: 12 });
      expect(lines.map((line) => line.msg)).to.include('search index filled again from the store');
      expect(await second.store.readCheckpoint(SEARCH_REFILL_CHECKPOINT), 'no refill left marked').to.equal(0);
    });

    it('is not ready while a refill is marked in the store', async () => {
      const backend = opened.at(-1) as Backend;
      await backend.store.writeCheckpoint(SEARCH_REFILL_CHECKPOINT, 1_000_000);
      try {
        expect((await fetch(`${app?.base}/readyz`)).status).to.equal(503);
      } finally {
        await backend.store.deleteCheckpoint(SEARCH_REFILL_CHECKPOINT);
      }
      expect((await fetch(`${app?.base}/readyz`)).status).to.equal(200);
    });
  });

  describe('documents written by an older document mapping', function () {
    this.timeout(60_000);
    const options = uniqueMeiliOptions(shared, 'mapping');
    let dataDir: string;
    let backend: Backend | undefined;
    let app: { base: string; close: () => Promise<void> } | undefined;

    before(() => {
      dataDir = temporaryDataDir();
    });
    after(async () => {
      await app?.close();
      await backend?.close();
      await dropMeiliIndexes(options);
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it('are written again by the index sync at its start, searches and /readyz answering throughout', async () => {
      backend = await openBackend({ databaseFile: join(dataDir, 'archive.sqlite'), search: { kind: 'meili', ...options } }, { migrate: true });
      const store = backend.store;
      const search = backend.search;
      const old = makeRecord({ title: { zh: '旋转的鹈鹕', en: '<vellum>spinning pelican' } });
      await store.putRecords([old, ...Array.from({ length: 10 }, (_, i) => makeRecord({ title: { zh: `灯塔${i}`, en: `Lighthouse ${i}` } }))]);
      await syncOnce(store, search);
      // The title as the mapping before 2026-11-26 wrote it (symbols kept, so `<vellum>spinning` is one word) in the en document; no version stored.
      const client = meiliClient(options);
      for (const lang of LANGS) {
        const index = client.index(indexName(lang, options.indexPrefix));
        const document = await index.getDocument(old.id);
        await index.addDocuments([{ ...document, title: [null, lang === 'zh' ? '旋转的鹈鹕' : '<vellum>spinning pelican'] }]).waitTask();
      }
      app = await serveApp(backend, dataDir);
      const base = app.base;
      const found = async (): Promise<number> => ((await (await fetch(`${base}/api/v1/specimens?q=vellum&lang=en`)).json()) as { total: number }).total;
      expect(await found(), 'the old document does not match vellum').to.equal(0);

      const logs: string[] = [];
      const sync = startSearchSync(store, search, createLogger('info', (line) => logs.push(line)), { pollMs: 50, retryDelayMs: 100 });
      try {
        await eventually(
          async () => {
            expect((await fetch(`${base}/readyz`)).status, 'ready throughout').to.equal(200);
            expect((await (await fetch(`${base}/api/v1/specimens?q=lighthouse&lang=en`)).json()) as { total: number }).to.include({ total: 10 });
            return (await found()) === 1;
          },
          30_000,
          'the old document was never written again',
        );
        await eventually(async () => (await store.readMappingVersion(SEARCH_SYNC_CHECKPOINT)) === search.mappingVersion, 10_000, 'the version was never stored');
      } finally {
        await sync.stop();
      }
      const messages = logs.map((line) => JSON.parse(line) as { level: string; msg: string; from?: number; to?: number });
      const upgrade = messages.filter((line) => line.msg.startsWith('search documents'));
      expect(upgrade.map((line) => [line.level, line.msg, line.from, line.to])).to.deep.equal([
        ['info', 'search documents were written by an older mapping: the sync writes every record again, searches answer from the old documents meanwhile', 0, search.mappingVersion],
        ['info', 'search documents rewritten with the current mapping', 0, search.mappingVersion],
      ]);

      // A process of an older version never lowers the stored version, and a start that finds it current rewrites nothing.
      await store.raiseMappingVersion(SEARCH_SYNC_CHECKPOINT, 0);
      expect(await store.readMappingVersion(SEARCH_SYNC_CHECKPOINT)).to.equal(search.mappingVersion);
      const again: string[] = [];
      const second = startSearchSync(store, search, createLogger('info', (line) => again.push(line)), { pollMs: 20 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await second.stop();
      expect(again.filter((line) => line.includes('search documents'))).to.deep.equal([]);
    });

    it('in a store without records, only the version is stored', async () => {
      const emptyOptions = uniqueMeiliOptions(shared, 'mapping-empty');
      const empty = await openBackend({ databaseFile: join(dataDir, 'empty.sqlite'), search: { kind: 'meili', ...emptyOptions } }, { migrate: true });
      const logs: string[] = [];
      try {
        const sync = startSearchSync(empty.store, empty.search, createLogger('info', (line) => logs.push(line)), { pollMs: 20 });
        await eventually(async () => (await empty.store.readMappingVersion(SEARCH_SYNC_CHECKPOINT)) === empty.search.mappingVersion, 10_000, 'the version was never stored');
        await sync.stop();
      } finally {
        await empty.close();
        await dropMeiliIndexes(emptyOptions);
      }
      expect(logs.filter((line) => line.includes('search documents'))).to.deep.equal([]);
    });
  });
}
