import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';
import { SCHEMAS } from '../../src/validation/schemas.ts';
import { makeRecord } from '../helpers/factories.ts';

describe('website addresses', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  const redirected = async (path: string): Promise<{ status: number; location: string | null }> => {
    const response = await server.get(path, { redirect: 'manual' });
    return { status: response.status, location: response.headers.get('location') };
  };

  it('names every search parameter on the developers page, in both languages', async () => {
    for (const path of ['/developers/', '/en/developers/']) {
      const html = await (await server.get(path)).text();
      const missing = Object.keys(SCHEMAS.searchParams.properties).filter((name) => !new RegExp(`[^a-z]${name}[^a-z]`).test(html));
      expect(missing, path).to.deep.equal([]);
    }
  });

  it('gives every page one h1, and a search a title that names it', async () => {
    for (const path of ['/', '/en/', '/timeline/', '/en/timeline/', '/en/?q=pelican', '/developers/']) {
      const html = await (await server.get(path)).text();
      expect(html.match(/<h1[ >]/g)?.length, path).to.equal(1);
    }
    // The title says how many works the search finds, as the API counts them.
    const count = async (query: string): Promise<number> => ((await (await server.get(`/api/v1/specimens?lang=en&limit=1&${query}`)).json()) as { total: number }).total;
    expect(await (await server.get('/en/?q=pelican')).text()).to.include(`<title>&quot;pelican&quot; · ${await count('q=pelican')} works · Gallery · Model Works Archive</title>`);
    expect(await (await server.get('/?q=%E9%B9%88%E9%B9%95')).text()).to.include(`<title>“鹈鹕” · 共 ${await count('q=%E9%B9%88%E9%B9%95')} 件 · 藏品 · 模型作品档案馆</title>`);
    expect(await (await server.get('/en/')).text()).to.include('<title>Model Works Archive</title>');
  });

  it('answers a page number past the end with a 404 that links the last page', async () => {
    await server.backend.store.putRecords([makeRecord({ title: { zh: '唯一作品', en: 'The only work' } })]);
    // On Meilisearch the index follows the store: until it holds the record, a search answers 503 (the index is being filled).
    await server.syncSearch();
    const past = await server.get('/en/?page=999&format=svg');
    expect(past.status).to.equal(404);
    const html = await past.text();
    expect(html).to.include('This page is past the end of the list (1 page).').and.include('href="/en/?format=svg"').and.not.include('The only work').and.not.include('Page 416');
    expect((await server.get('/en/?page=1&format=svg')).status).to.equal(200);
    expect((await server.get('/?page=2')).status).to.equal(404);
  });

  it('names a page past the end by the number asked, however large', async () => {
    const huge = await server.get('/en/?page=99999999999999999999');
    expect(huge.status).to.equal(404);
    const html = await huge.text();
    expect(html).to.include('<title>Gallery · Page 99999999999999999999 · Model Works Archive</title>').and.include('This page is past the end of the list');
    expect(html).to.not.include('9007199254740');
    const zh = await (await server.get(`/timeline/?page=000${'9'.repeat(30)}`)).text();
    expect(zh).to.include(`<title>时间线 · 第 ${'9'.repeat(30)} 页 · 模型作品档案馆</title>`);
  });

  it('links the model and the author of a record to their other works, a filter the list page shows and can drop', async () => {
    const work = makeRecord({ author: 'Lee, Ann', model: 'Comma-Model', title: { zh: '逗号作者的作品', en: 'A work by an author with a comma' } });
    const other = makeRecord({ author: 'Someone Else', model: 'Comma-Model', title: { zh: '另一位作者', en: 'Another author' } });
    await server.backend.store.putRecords([work, other]);
    await server.syncSearch();
    const page = await (await server.get(`/en/specimens/${work.id}/`)).text();
    const byAuthor = '/en/?author=%22Lee%2C%20Ann%22';
    // The author's name is in no recorded language: it is marked with the one its letters show (plain Latin: English).
    expect(page).to.include(`<a href="${byAuthor}"><span lang="en">Lee, Ann</span></a>`).and.include('<a href="/en/?model=Comma-Model">Comma-Model</a>');
    const list = await server.get(byAuthor);
    expect(list.status).to.equal(200);
    const html = await list.text();
    expect(html).to.include('A work by an author with a comma').and.not.include('Another author');
    expect(html).to.include('Author: <span lang="en">Lee, Ann</span>').and.include('<input type="hidden" name="author" value="&quot;Lee, Ann&quot;"/>');
    expect(html).to.include('<a href="/en/"><span class="visually-hidden">Remove the filter Author: <span lang="en">Lee, Ann</span></span>');
  });

  it('sends /zh addresses to the Chinese pages at the root, keeping the query', async () => {
    expect(await redirected('/zh')).to.deep.equal({ status: 301, location: '/' });
    expect(await redirected('/zh/')).to.deep.equal({ status: 301, location: '/' });
    expect(await redirected('/zh/timeline/?year=2025')).to.deep.equal({ status: 301, location: '/timeline/?year=2025' });
  });

  it('never redirects to another host, and answers a redirect alike whatever the Accept', async () => {
    // Doubled slashes are made one first, then /zh goes to the root: each step stays on this site.
    expect(await redirected('/zh//evil.example/path')).to.deep.equal({ status: 301, location: '/zh/evil.example/path' });
    expect(await redirected('/zh/evil.example/path')).to.deep.equal({ status: 301, location: '/evil.example/path' });
    // A raw backslash, which fetch would have made a slash: a browser reads /\host in a Location as //host.
    const raw = async (path: string, accept: string) =>
      new Promise<{ status?: number; location?: string; type?: string; body: string }>((resolve, reject) => {
        const request = httpRequest({ host: '127.0.0.1', port: new URL(server.baseUrl).port, path, headers: { Accept: accept } }, (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode, location: response.headers.location, type: response.headers['content-type'], body }));
        });
        request.on('error', reject);
        request.end();
      });
    for (const accept of ['text/html', 'text/plain', '*/*']) {
      expect(await raw('/zh/\\evil.example/timeline/', accept), accept).to.deep.equal({ status: 301, location: '/%5Cevil.example/timeline/', type: 'text/plain; charset=utf-8', body: 'Moved to /%5Cevil.example/timeline/\n' });
      // A name ending like a file loses its slash first, escaped as well.
      expect(await raw('/zh/\\evil.example/', accept), accept).to.deep.include({ status: 301, location: '/zh/%5Cevil.example' });
    }
  });

  it('sends an address written in capitals to the lower-case page, keeping the query', async () => {
    expect(await redirected('/EN/')).to.deep.equal({ status: 301, location: '/en/' });
    expect(await redirected('/En/Timeline/?q=Pelican')).to.deep.equal({ status: 301, location: '/en/timeline/?q=Pelican' });
    expect(await redirected('/DEVELOPERS/')).to.deep.equal({ status: 301, location: '/developers/' });
    // A page written without its folder slash gets it in the same redirect.
    expect(await redirected('/EN')).to.deep.equal({ status: 301, location: '/en/' });
    expect(await redirected('/en/Timeline?year=2025')).to.deep.equal({ status: 301, location: '/en/timeline/?year=2025' });
    expect(await redirected('/Developers')).to.deep.equal({ status: 301, location: '/developers/' });
    const page = await server.get('/EN/');
    expect(page.status).to.equal(200);
    expect(await page.text()).to.include(`<link rel="canonical" href="${server.baseUrl}/en/"/>`);
    // API paths are not the website's: they answer as before.
    expect((await server.get('/api/v1/specimens?lang=en')).status).to.equal(200);
  });

  it('says an error answer chosen by Accept varies by Accept, keeping Accept-Encoding', async () => {
    const varies = (response: Response): string[] => (response.headers.get('vary') ?? '').split(',').map((field) => field.trim().toLowerCase());
    const page = await server.get('/en/no-such-page/', { headers: { Accept: 'text/html', 'Accept-Encoding': 'gzip' } });
    expect(page.status).to.equal(404);
    expect(page.headers.get('content-type')).to.match(/^text\/html/);
    expect(varies(page)).to.include('accept').and.include('accept-encoding');
    const problem = await server.get('/en/no-such-page/', { headers: { Accept: 'application/json', 'Accept-Encoding': 'gzip' } });
    expect(problem.status).to.equal(404);
    expect(problem.headers.get('content-type')).to.match(/^application\/problem\+json/);
    expect(varies(problem)).to.include('accept').and.include('accept-encoding');
    // Answers Accept does not choose say nothing of it: API paths, and pages, which are HTML whatever Accept says.
    expect(varies(await server.get('/api/v1/nothing-here', { headers: { Accept: 'text/html' } }))).to.not.include('accept');
    expect(varies(await server.get('/en/', { headers: { Accept: 'text/html' } }))).to.not.include('accept');
    // The probes answer JSON to everyone, a browser too.
    const probe = await server.get('/readyz/deeper', { headers: { Accept: 'text/html' } });
    expect([probe.status, probe.headers.get('content-type')]).to.deep.equal([404, 'application/problem+json']);
    // Every error answer, from whichever middleware, says it varies by Accept-Encoding: a page's own 400, the API's 400, 405, 413 (the 429 and 503 pages: rate-limit and unavailable tests).
    const html = { Accept: 'text/html', 'Accept-Encoding': 'gzip' };
    const errors: [string, Response][] = [
      ['page 400', await server.get('/en/?format=bogus', { headers: html })],
      ['API 400', await server.get('/api/v1/specimens?colour=red', { headers: html })],
      ['405', await server.get('/api/v1/specimens', { method: 'DELETE', headers: html })],
      ['413', await server.get('/api/v1/ingest', { method: 'POST', body: 'x'.repeat(300 * 1024), headers: { ...html, 'Content-Type': 'application/json', Authorization: 'Bearer mwa_unknown' } })],
    ];
    for (const [what, response] of errors) {
      expect(response.status, what).to.be.within(400, 499);
      expect(varies(response), what).to.include('accept-encoding');
    }
  });

  it('gives every resource one address: a file or API resource with a trailing slash, any address in capitals or with doubled slashes, redirected in one step', async () => {
    for (const [asked, location] of [
      ['/api/v1/specimens/?lang=en', '/api/v1/specimens?lang=en'],
      ['/API/V1/Specimens?lang=en', '/api/v1/specimens?lang=en'],
      ['/openapi.json/', '/openapi.json'],
      ['/healthz/', '/healthz'],
      ['/EN/llms.txt', '/en/llms.txt'],
      ['/Data/Catalog.csv', '/data/catalog.csv'],
      ['/en//', '/en/'],
      ['/en//Timeline', '/en/timeline/'],
      // Unreserved characters percent-encoded are the same address (RFC 3986 §6.2.2.2); other escapes stay escapes.
      ['/api/v1/%73pecimens?q=%70elican', '/api/v1/specimens?q=%70elican'],
      ['/%65n/%54imeline', '/en/timeline/'],
      ['/en/%7e%2D%5f', '/en/~-_'],
      // Other escapes stay escapes, their hexadecimal digits in capitals (RFC 3986 §6.2.2.1).
      ['/en/%e9%b9%88', '/en/%E9%B9%88'],
    ]) {
      expect(await redirected(asked ?? ''), asked).to.deep.equal({ status: 301, location });
    }
    // What is written as linked is served, and other methods reach the routes as before.
    expect((await server.get('/api/v1/specimens?lang=en')).status).to.equal(200);
    expect((await server.get('/api/v1/specimens/', { method: 'POST' })).status).to.equal(405);
    expect(await redirected('/en/%E9%B9%88'), 'an escape of another character is no second address').to.deep.equal({ status: 404, location: null });
  });

  it('keeps the English folder redirect', async () => {
    expect(await redirected('/en')).to.deep.equal({ status: 301, location: '/en/' });
  });
});
