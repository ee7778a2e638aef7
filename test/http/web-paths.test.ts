import { expect } from 'chai';
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
    expect(await (await server.get('/en/?q=pelican')).text()).to.include('<title>&quot;pelican&quot; · Gallery · Model Works Archive</title>');
    expect(await (await server.get('/?q=%E9%B9%88%E9%B9%95')).text()).to.include('<title>“鹈鹕” · 藏品 · 模型作品档案馆</title>');
    expect(await (await server.get('/en/')).text()).to.include('<title>Model Works Archive</title>');
  });

  it('answers a page number past the end with a 404 that links the last page', async () => {
    await server.backend.store.putRecords([makeRecord({ title: { zh: '唯一作品', en: 'The only work' } })]);
    const past = await server.get('/en/?page=999&format=svg');
    expect(past.status).to.equal(404);
    const html = await past.text();
    expect(html).to.include('This page is past the end of the list (1 page).').and.include('href="/en/?format=svg"').and.not.include('The only work').and.not.include('Page 416');
    expect((await server.get('/en/?page=1&format=svg')).status).to.equal(200);
    expect((await server.get('/?page=2')).status).to.equal(404);
  });

  it('sends /zh addresses to the Chinese pages at the root, keeping the query', async () => {
    expect(await redirected('/zh')).to.deep.equal({ status: 301, location: '/' });
    expect(await redirected('/zh/')).to.deep.equal({ status: 301, location: '/' });
    expect(await redirected('/zh/timeline/?year=2025')).to.deep.equal({ status: 301, location: '/timeline/?year=2025' });
  });

  it('never redirects /zh to another host', async () => {
    expect(await redirected('/zh//evil.example/path')).to.deep.equal({ status: 301, location: '/evil.example/path' });
  });

  it('keeps the English folder redirect', async () => {
    expect(await redirected('/en')).to.deep.equal({ status: 301, location: '/en/' });
  });
});
