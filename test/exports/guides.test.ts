import { expect } from 'chai';
import { startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';

describe('the agent guides (/llms.txt, /en/llms.txt)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ demo: true, limits: { rateLimitReads: 321 } });
  });
  after(async () => server.close());

  for (const [path, rate, paging, sync] of [
    ['/llms.txt', /每分钟 321 个请求/, /limit 为 1–50（默认 20），offset 为 0–10000/, /从其前一天起，先用 \/api\/v1\/specimens\?since= 取新增与更新的记录，再用 \/api\/v1\/removals\?since= 同一日取已移除的 id 并从副本中删除/],
    ['/en/llms.txt', /321 requests per minute per client address/, /limit 1–50 \(default 20\), offset 0–10000/, /from the day before it ask \/api\/v1\/specimens\?since= for new and updated records, then \/api\/v1\/removals\?since= the same day and delete those ids/],
  ] as const) {
    it(`${path}: its sync recipe reads the removals as well as the since list`, async () => {
      expect(await (await server.get(path)).text()).to.match(sync);
    });

    it(`${path} is Markdown in the llmstxt.org shape, naming the rate limit and the paging rules`, async () => {
      const response = await server.get(`${path}?utm_source=chat`);
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.equal('text/markdown; charset=utf-8');
      const text = await response.text();
      const lines = text.split('\n');
      expect(lines[0]).to.match(/^# \S/);
      expect(lines.find((line) => line.startsWith('> '))).to.not.equal(undefined);
      expect(text).to.match(rate);
      expect(text).to.match(paging);
      expect(text).to.include('Retry-After');
      expect(text).to.include('RateLimit');
    });

    it(`${path}: every link of the service answers`, async () => {
      const text = await (await server.get(path)).text();
      const links = [...text.matchAll(/\]\((http[^)\s]+)\)/g)].map((match) => match[1] ?? '').filter((link) => link.startsWith(server.baseUrl) && !link.includes('{'));
      expect(links.length).to.be.greaterThan(8);
      for (const link of links) {
        const response = await fetch(link, link.endsWith('/mcp') ? { method: 'OPTIONS' } : {});
        expect(response.status, link).to.be.oneOf([200, 204]);
        await response.arrayBuffer();
      }
    });
  }
});
