import { expect } from 'chai';
import Koa from 'koa';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Element } from '@xmldom/xmldom';
import type { RecordStore, StreamOptions } from '../../src/domain/ports.ts';
import { discoveryRouter } from '../../src/http/discovery/router.ts';
import { problems } from '../../src/http/middlewares/problems.ts';
import { ResponseCache } from '../../src/http/response-cache.ts';
import { createLogger } from '../../src/logger.ts';
import { URLS_PER_SITEMAP } from '../../src/web/sitemap.ts';
import { makeRecord } from '../helpers/factories.ts';
import { children, onlyText, parseXml } from '../helpers/xml.ts';
import { getJson, startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';

const SITEMAP = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const XHTML = 'http://www.w3.org/1999/xhtml';
const ATOM = 'http://www.w3.org/2005/Atom';
/** W3C Datetime as sitemaps.org allows it: a date, or a date and time with a zone. */
const W3C_DATETIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;
/** RFC 3339 date-time, as Atom requires for updated and published. */
const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

interface UrlEntry {
  loc: string;
  lastmod: string;
  alternates: Map<string, string>;
}

/** Checks a urlset against the sitemaps.org rules and the hreflang rules, and returns its entries. */
function readUrlset(text: string, baseUrl: string): UrlEntry[] {
  expect(Buffer.byteLength(text)).to.be.below(50 * 1024 * 1024);
  const root = parseXml(text).documentElement as unknown as Element;
  expect(root.namespaceURI).to.equal(SITEMAP);
  expect(root.localName).to.equal('urlset');
  const urls = children(root, SITEMAP);
  expect(urls.length).to.be.at.most(URLS_PER_SITEMAP);
  return urls.map((url) => {
    expect(url.localName).to.equal('url');
    const loc = onlyText(url, SITEMAP, 'loc');
    expect(loc.startsWith(`${baseUrl}/`), loc).to.equal(true);
    expect(loc.length).to.be.below(2048);
    const lastmod = onlyText(url, SITEMAP, 'lastmod');
    expect(lastmod).to.match(W3C_DATETIME);
    const alternates = new Map(children(url, XHTML, 'link').map((link) => {
      expect(link.getAttribute('rel')).to.equal('alternate');
      return [link.getAttribute('hreflang') ?? '', link.getAttribute('href') ?? ''];
    }));
    expect([...alternates.keys()].sort()).to.deep.equal(['en', 'x-default', 'zh-Hans']);
    expect([...alternates.values()]).to.include(loc);
    return { loc, lastmod, alternates };
  });
}

/** The sitemap files an index names, checked against the sitemap index rules. */
function readIndex(text: string, baseUrl: string): string[] {
  const root = parseXml(text).documentElement as unknown as Element;
  expect(root.namespaceURI).to.equal(SITEMAP);
  expect(root.localName).to.equal('sitemapindex');
  return children(root, SITEMAP).map((sitemap) => {
    expect(sitemap.localName).to.equal('sitemap');
    expect(onlyText(sitemap, SITEMAP, 'lastmod')).to.match(W3C_DATETIME);
    const loc = onlyText(sitemap, SITEMAP, 'loc');
    expect(loc.startsWith(`${baseUrl}/sitemaps/`)).to.equal(true);
    return loc;
  });
}

describe('discoverability: robots.txt, sitemaps, feeds and structured data', function () {
  this.timeout(60_000);
  let server: TestServer;
  const hostile = makeRecord({ date: '2026-02-02', title: { zh: '</script><script>alert(1)</script>标题', en: '</script><script>alert(1)</script> & "title"' }, notes: { zh: '注释 <!--', en: 'Notes <!-- ]]> & more' } });

  before(async () => {
    server = await startTestServer({ demo: true });
    await server.backend.store.putRecords([hostile]);
    await server.syncSearch();
  });
  after(async () => server.close());

  it('robots.txt lets crawlers read the pages, keeps them off the API and names the sitemap', async () => {
    const response = await server.get('/robots.txt?utm_source=x');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
    const lines = (await response.text()).split('\n');
    expect(lines).to.include('User-agent: *');
    expect(lines).to.include.members(['Disallow: /api/', 'Disallow: /mcp', 'Disallow: /*?']);
    expect(lines).to.include(`Sitemap: ${server.baseUrl}/sitemap.xml`);
  });

  it('the sitemap index and its files follow the sitemaps.org rules, with both languages as hreflang alternates', async () => {
    const index = await server.get('/sitemap.xml');
    expect(index.headers.get('content-type')).to.equal('application/xml; charset=utf-8');
    const files = readIndex(await index.text(), server.baseUrl);
    const [first] = await server.backend.store.pageStarts(Number.MAX_SAFE_INTEGER);
    expect(files.map((file) => file.slice(server.baseUrl.length))).to.deep.equal(['/sitemaps/pages.xml', `/sitemaps/records-${first}.xml`]);
    const entries: UrlEntry[] = [];
    for (const file of files) entries.push(...readUrlset(await (await fetch(file)).text(), server.baseUrl));
    const locs = entries.map((entry) => entry.loc);
    expect(new Set(locs).size).to.equal(locs.length);
    const { total } = (await server.backend.store.catalogState());
    expect(entries).to.have.length(2 * total + 6);
    // Every alternate is itself listed, naming the same alternates back (hreflang must be reciprocal).
    const byLoc = new Map(entries.map((entry) => [entry.loc, entry]));
    for (const entry of entries) {
      for (const [hreflang, href] of entry.alternates) {
        if (hreflang === 'x-default') continue;
        expect(byLoc.get(href)?.alternates, `${entry.loc} → ${hreflang}`).to.deep.equal(entry.alternates);
      }
    }
    const page = byLoc.get(`${server.baseUrl}/en/specimens/${hostile.id}/`);
    expect(page?.alternates.get('zh-Hans')).to.equal(`${server.baseUrl}/specimens/${hostile.id}/`);
    expect(page?.lastmod).to.equal(hostile.updated);
    // HEAD of a records file names the content coding GET is sent in, and the same tag.
    const records = new URL(files[1] ?? '').pathname;
    const [get, head] = await Promise.all(['GET', 'HEAD'].map((method) => server.get(records, { method, headers: { 'Accept-Encoding': 'gzip' } })));
    for (const field of ['content-encoding', 'content-type', 'etag', 'vary']) expect(head?.headers.get(field), field).to.equal(get?.headers.get(field));
    expect(head?.status).to.equal(200);
    expect(get?.headers.get('content-encoding')).to.equal('gzip');
  });

  it('every URL in the sitemap answers 200 with a page', async () => {
    const files = readIndex(await (await server.get('/sitemap.xml')).text(), server.baseUrl);
    let checked = 0;
    for (const file of files) {
      for (const { loc } of readUrlset(await (await fetch(file)).text(), server.baseUrl)) {
        const response = await fetch(loc);
        expect(response.status, loc).to.equal(200);
        expect(response.headers.get('content-type'), loc).to.equal('text/html; charset=utf-8');
        await response.arrayBuffer();
        checked += 1;
      }
    }
    expect(checked).to.be.greaterThan(90);
    expect((await server.get('/sitemaps/records-2.xml')).status).to.equal(404);
    expect((await server.get('/sitemaps/../archive.sqlite')).status).to.equal(404);
  });

  it('splits records into one sitemap file per URL limit, each record in exactly one file, each file reading only its own records', async () => {
    const cache = new ResponseCache(1024 * 1024);
    const app = new Koa();
    const logger = createLogger('silent');
    const small: Server = createServer();
    await new Promise<void>((resolve) => small.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(small.address() as AddressInfo).port}`;
    app.use(problems(baseUrl, logger));
    // The real store, counting the records its streams hand out: a file may read only its own.
    const store = server.backend.store;
    let read = 0;
    const counting: RecordStore = Object.assign(Object.create(store) as RecordStore, {
      async *streamRecords(options?: StreamOptions) {
        for await (const record of store.streamRecords(options)) {
          read += 1;
          yield record;
        }
      },
    });
    app.use(discoveryRouter({ store: counting, search: server.backend.search, baseUrl }, { cache, maxAgeSeconds: 60, recordsPerSitemap: 10 }).routes());
    small.on('request', app.callback());
    try {
      const { total } = await server.backend.store.catalogState();
      const files = readIndex(await (await fetch(`${baseUrl}/sitemap.xml`)).text(), baseUrl);
      expect(files).to.have.length(1 + Math.ceil(total / 10));
      const seen: string[] = [];
      for (const file of files.slice(1)) {
        read = 0;
        const entries = readUrlset(await (await fetch(file)).text(), baseUrl);
        expect(entries.length).to.be.at.most(20);
        expect(read, `records read for ${file}`).to.equal(entries.length / 2);
        seen.push(...entries.map((entry) => entry.loc));
      }
      expect(seen).to.have.length(2 * total);
      expect(new Set(seen).size).to.equal(seen.length);
      expect((await fetch(`${baseUrl}/sitemaps/records-${files.length}.xml`)).status).to.equal(404);
      expect((await fetch(`${baseUrl}/sitemaps/records-${hostile.id}-.xml`)).status).to.equal(404);
    } finally {
      small.closeAllConnections();
      await new Promise<void>((resolve) => small.close(() => resolve()));
    }
  });

  for (const lang of ['zh', 'en'] as const) {
    const path = lang === 'zh' ? '/feed.atom' : '/en/feed.atom';
    it(`${path} is valid Atom 1.0 with the newest 50 works, newest first`, async () => {
      const extra = Array.from({ length: 30 }, (_, index) => makeRecord({ date: '2025-05-05', title: { zh: `新作品 ${index}`, en: `New work ${index}` } }));
      await server.backend.store.putRecords(extra);
      const newest = makeRecord({ kind: 'gallery', title: { zh: '最新的作品', en: 'The newest work' }, author: '@newest_author', updated: '2026-11-22' });
      await server.backend.store.putRecords([newest]);
      await server.backend.store.putRecords([makeRecord({ kind: 'timeline', title: { zh: '时间线', en: 'Timeline only' } })]);
      await server.syncSearch();

      const response = await server.get(`${path}?utm_source=reader`);
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.equal('application/atom+xml; charset=utf-8');
      const feed = parseXml(await response.text()).documentElement as unknown as Element;
      expect(feed.namespaceURI).to.equal(ATOM);
      expect(feed.localName).to.equal('feed');
      expect(feed.getAttribute('xml:lang')).to.equal(lang === 'zh' ? 'zh-Hans' : 'en');
      // RFC 4287 4.1.1: exactly one id, title and updated; an author; at most one alternate per type and hreflang; self link.
      expect(onlyText(feed, ATOM, 'id')).to.equal(`${server.baseUrl}${path}`);
      expect(onlyText(feed, ATOM, 'title')).to.not.equal('');
      const feedUpdated = onlyText(feed, ATOM, 'updated');
      expect(feedUpdated).to.match(RFC_3339);
      expect(children(feed, ATOM, 'author')).to.have.length(1);
      const links = (parent: Element) => children(parent, ATOM, 'link').map((link) => ({ rel: link.getAttribute('rel') ?? 'alternate', type: link.getAttribute('type') ?? '', hreflang: link.getAttribute('hreflang') ?? '', href: link.getAttribute('href') ?? '' }));
      const uniqueAlternates = (list: ReturnType<typeof links>) => {
        const keys = list.filter((link) => link.rel === 'alternate').map((link) => `${link.type}|${link.hreflang}`);
        expect(new Set(keys).size, 'alternates with the same type and hreflang').to.equal(keys.length);
      };
      uniqueAlternates(links(feed));
      expect(links(feed).find((link) => link.rel === 'self')?.href).to.equal(`${server.baseUrl}${path}`);

      const entries = children(feed, ATOM, 'entry');
      expect(entries).to.have.length(50);
      const ids = entries.map((entry) => onlyText(entry, ATOM, 'id'));
      expect(new Set(ids).size).to.equal(50);
      const api = (await getJson<{ title: string; url: string; author: string; thumbnail: string | null }>(server, `/api/v1/specimens/${newest.id}?lang=${lang}`)).body;
      expect(ids[0]).to.equal(api.url);
      expect(onlyText(entries[0] as Element, ATOM, 'title')).to.equal(api.title);
      const author = children(entries[0] as Element, ATOM, 'author')[0] as Element;
      expect(onlyText(author, ATOM, 'name')).to.equal('@newest_author');
      // An author's name is marked by its script, as on the record pages: Latin letters alone read as English.
      expect(author.getAttribute('xml:lang'), "an author's name marked by its script").to.equal('en');
      expect(onlyText(entries[0] as Element, ATOM, 'content'), 'in the entry\'s text too').to.include('<span lang="en">@newest_author</span>');
      expect(ids.every((id) => id.includes('/specimens/'))).to.equal(true);
      const updates: string[] = [];
      for (const entry of entries) {
        // RFC 4287 4.1.2: id, title, updated; an author (or the feed's); an alternate link when there is no content.
        expect(onlyText(entry, ATOM, 'title')).to.not.equal('');
        const updated = onlyText(entry, ATOM, 'updated');
        expect(updated).to.match(RFC_3339);
        expect(Number.isNaN(Date.parse(updated))).to.equal(false);
        updates.push(updated);
        expect(children(entry, ATOM, 'published').length).to.be.at.most(1);
        expect(children(entry, ATOM, 'summary').length).to.be.at.most(1);
        expect(children(entry, ATOM, 'content').length).to.be.at.most(1);
        uniqueAlternates(links(entry));
        expect(links(entry).find((link) => link.rel === 'alternate' && link.type === 'text/html')?.href).to.equal(onlyText(entry, ATOM, 'id'));
      }
      expect(updates.every((updated) => updated <= feedUpdated)).to.equal(true);
      // Record text reaches the reader as text: the hostile title is in the feed only escaped.
      const hostileEntry = (await (await server.get(path)).text()).includes('<script>alert(1)</script>');
      expect(hostileEntry).to.equal(false);
    });
  }

  it('every page links its language\'s feed in the head', async () => {
    for (const [path, feed] of [['/', '/feed.atom'], ['/timeline/', '/feed.atom'], ['/developers/', '/feed.atom'], [`/specimens/${hostile.id}/`, '/feed.atom'], ['/en/', '/en/feed.atom'], ['/en/timeline/', '/en/feed.atom'], [`/en/specimens/${hostile.id}/`, '/en/feed.atom'], ['/en/no-such-page/', '/en/feed.atom']] as const) {
      const html = await (await server.get(path, { headers: { Accept: 'text/html' } })).text();
      const head = html.slice(0, html.indexOf('</head>'));
      expect(head, path).to.include(`<link rel="alternate" type="application/atom+xml"`);
      expect(head, path).to.include(`href="${feed}"`);
      // The footer's CSV is the one a spreadsheet opens safely: a reader who clicks it opens it in one.
      const footer = html.slice(html.indexOf('<footer'));
      expect(footer, path).to.include(`href="${feed.replace('feed.atom', 'data/catalog.csv?excel=1')}"`).and.not.include('catalog.csv"');
    }
  });

  it('record pages carry schema.org JSON-LD naming the record\'s fields, whatever the record text holds', async () => {
    for (const lang of ['zh', 'en'] as const) {
      const record = (await getJson<Record<string, unknown> & { media: { url: string; width: number; height: number }[] }>(server, `/api/v1/specimens/${hostile.id}?lang=${lang}`)).body;
      const html = await (await server.get(`${lang === 'zh' ? '' : '/en'}/specimens/${hostile.id}/`)).text();
      const blocks = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? '');
      expect(blocks).to.have.length(1);
      expect(html).to.not.include('<script>alert(1)</script>');
      const data = JSON.parse(blocks[0] ?? '') as Record<string, unknown>;
      expect(data['@context']).to.equal('https://schema.org');
      expect(data['@type']).to.equal('VisualArtwork');
      expect(data).to.include({ name: record.title, description: record.notes, dateCreated: record.date, url: record.url, sameAs: record.sourceUrl, identifier: record.id, inLanguage: lang === 'zh' ? 'zh-Hans' : 'en' });
      expect(data.creator).to.deep.equal({ '@type': 'Person', name: record.author });
      expect(data.isPartOf).to.deep.equal({ '@type': 'Collection', name: lang === 'zh' ? '模型作品档案馆' : 'Model Works Archive', url: `${server.baseUrl}${lang === 'zh' ? '' : '/en'}/` });
    }
    const videos = (await getJson<{ items: { id: string; format: string; media: { url: string; width: number; height: number }[]; thumbnail: string | null }[] }>(server, '/api/v1/specimens?lang=en&format=video&limit=50')).body.items;
    const demo = videos.find((item) => item.media.length > 0);
    expect(demo).to.not.equal(undefined);
    const html = await (await server.get(`/en/specimens/${demo?.id}/`)).text();
    const data = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '') as Record<string, unknown>;
    expect(data['@type']).to.equal('CreativeWork');
    expect(data.image).to.deep.equal(demo?.media.map((media) => ({ '@type': 'ImageObject', contentUrl: media.url, width: media.width, height: media.height })));
    expect(data.thumbnailUrl).to.equal(demo?.thumbnail);
  });

  it('pages name both languages as absolute hreflang alternates, and the 404 page asks not to be indexed', async () => {
    const html = await (await server.get(`/en/specimens/${hostile.id}/`)).text();
    expect(html).to.include(`<link rel="alternate" hreflang="zh-Hans" href="${server.baseUrl}/specimens/${hostile.id}/"/>`);
    expect(html).to.include(`<link rel="alternate" hreflang="en" href="${server.baseUrl}/en/specimens/${hostile.id}/"/>`);
    expect(html).to.include(`<link rel="canonical" href="${server.baseUrl}/en/specimens/${hostile.id}/"/>`);
    const missing = await (await server.get('/en/specimens/svg-none-00000000/')).text();
    expect(missing).to.include('<meta name="robots" content="noindex"/>');
    expect(missing).to.not.include('rel="canonical"');
  });
});
