import { expect } from 'chai';
import Koa from 'koa';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answersVersion } from '../../src/http/answers-version.ts';
import { problems } from '../../src/http/middlewares/problems.ts';
import { ResponseCache } from '../../src/http/response-cache.ts';
import { pagesOfList, webRouter } from '../../src/http/web/router.ts';
import { createLogger } from '../../src/logger.ts';
import { MAX_OFFSET } from '../../src/validation/read-params.ts';
import { makeRecord } from '../helpers/factories.ts';
import { startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';

/** The pager of a list page: its "Page n of m" and the address of its Next link, if any. */
function pagerOf(html: string): { label: string | undefined; next: string | undefined } {
  const pager = /<nav class="pagination"[^>]*>(.*?)<\/nav>/s.exec(html)?.[1] ?? '';
  return { label: /<span>([^<]+)<\/span>/.exec(pager)?.[1], next: /<a rel="next" href="([^"]+)"/.exec(pager)?.[1] };
}

describe('list pages stop where offsets do', () => {
  // Offsets stop after 3 pages here, so 80 works of each list (4 pages of 24) run past the cap.
  const MAX_OFFSET_HERE = 3 * 24;
  let server: TestServer;
  let web: Server;
  let baseUrl: string;

  before(async () => {
    const gallery = Array.from({ length: 80 }, () => makeRecord());
    const timeline = Array.from({ length: 80 }, (_, index) => makeRecord({ kind: 'timeline', model: `Milestone-${index}` }));
    server = await startTestServer({ records: [...gallery, ...timeline] });
    const logger = createLogger('error', () => {});
    web = createServer();
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
    const app = new Koa();
    app.use(problems(baseUrl, logger));
    const { store, search } = server.backend;
    app.use(webRouter({ store, search, baseUrl }, { version: answersVersion(server.backend), cache: new ResponseCache(1024 * 1024), maxAgeSeconds: 60, maxOffset: MAX_OFFSET_HERE }).routes());
    web.on('request', app.callback());
  });
  after(async () => {
    web.closeAllConnections();
    await new Promise<void>((resolve) => web.close(() => resolve()));
    await server.close();
  });

  it('counts pages only as deep as offsets reach: 416 of 24 works under the API\'s cap of 10,000', () => {
    expect(pagesOfList(10_500, MAX_OFFSET)).to.equal(416);
    expect(pagesOfList(9_984, MAX_OFFSET)).to.equal(416);
    expect(pagesOfList(100, MAX_OFFSET)).to.equal(5);
    expect(pagesOfList(0, MAX_OFFSET)).to.equal(1);
  });

  for (const [list, path] of [['gallery', '/en/'], ['timeline', '/en/timeline/']] as const) {
    it(`names the deepest reachable page of the ${list} as its last, with no Next link, and answers 404 past it`, async () => {
      const exportsNote = 'The pages stop at page 3 (the first 72 works); the whole catalog is in the bulk exports: <a href="/en/data/catalog.json">JSON</a>, <a href="/en/data/catalog.csv?excel=1">CSV</a>.';
      const second = await fetch(`${baseUrl}${path}?page=2`);
      expect(second.status).to.equal(200);
      const secondHtml = await second.text();
      expect(pagerOf(secondHtml)).to.deep.equal({ label: 'Page 2 of 3', next: `${path}?page=3` });
      expect(secondHtml, 'the pager landmark keeps its name from page to page').to.include('<nav class="pagination" aria-label="Pages">');
      expect(secondHtml, 'the exports are named on the last page alone').not.to.include('The pages stop');

      const deepest = await fetch(`${baseUrl}${path}?page=3`);
      expect(deepest.status).to.equal(200);
      const deepestHtml = await deepest.text();
      expect(pagerOf(deepestHtml)).to.deep.equal({ label: 'Page 3 of 3', next: undefined });
      expect(deepestHtml, 'where the rest of the list is').to.include(exportsNote);

      const past = await fetch(`${baseUrl}${path}?page=4`);
      expect(past.status).to.equal(404);
      const pastHtml = await past.text();
      expect(pastHtml).to.include('This page is past the end of the list (3 pages).').and.include(exportsNote);
    });
  }
});
