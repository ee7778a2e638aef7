import { expect } from 'chai';
import { generateSecret, secretSha256 } from '../../src/auth/secrets.ts';
import { makeRecord, makeSubmission } from '../helpers/factories.ts';
import { startTestServer } from '../helpers/server.ts';
import type { TestLimits, TestServer } from '../helpers/server.ts';

interface Problem {
  type: string;
  status: number;
  detail: string;
}

async function serverWith(limits: TestLimits): Promise<TestServer> {
  return startTestServer({ records: [makeRecord(), makeRecord()], limits });
}

describe('rate limits and the daily quota', () => {
  let server: TestServer | undefined;
  afterEach(async () => server?.close());

  it('announces the per-client policy and refuses past it with 429 problem+json and Retry-After', async () => {
    server = await serverWith({ rateLimitReads: 3 });
    const answers = [];
    for (let i = 0; i < 4; i += 1) answers.push(await server.get('/api/v1/specimens?lang=en'));
    expect(answers.slice(0, 3).map((answer) => answer.status)).to.deep.equal([200, 200, 200]);
    expect(answers[0]?.headers.get('ratelimit-policy')).to.equal('"client";q=3;w=60');
    expect(answers.map((answer) => answer.headers.get('ratelimit')?.replace(/t=\d+/, 't=T'))).to.deep.equal(['"client";r=2;t=T', '"client";r=1;t=T', '"client";r=0;t=T', '"client";r=0;t=T']);
    const refused = answers[3] as Response;
    expect(refused.status).to.equal(429);
    expect(refused.headers.get('content-type')).to.match(/^application\/problem\+json/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).to.be.within(1, 60);
    expect(refused.headers.get('access-control-allow-origin')).to.equal('*');
    const problem = (await refused.json()) as Problem;
    expect(problem).to.include({ status: 429 });
    expect(problem.type).to.match(/\/problems\/too-many-requests$/);
    expect(problem.detail).to.contain('3 per 60 seconds');
  });

  it('refuses a browser past the limit with a 429 page in the language of the page asked, keeping Retry-After; API paths keep problem+json', async () => {
    server = await serverWith({ rateLimitReads: 2 });
    const html = { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    expect((await server.get('/en/', { headers: html })).status).to.equal(200);
    expect((await server.get('/', { headers: html })).status).to.equal(200);
    for (const [path, lang, says] of [['/en/', 'en', 'Try again in'], ['/en/timeline/?year=2025', 'en', 'Too many requests'], ['/', 'zh-Hans', '秒后再试'], ['/specimens/no-such-record/', 'zh-Hans', '请求太频繁']] as const) {
      const refused = await server.get(path, { headers: html });
      expect(refused.status, path).to.equal(429);
      expect(refused.headers.get('content-type'), path).to.equal('text/html; charset=utf-8');
      expect(Number(refused.headers.get('retry-after')), path).to.be.within(1, 60);
      expect(refused.headers.get('ratelimit'), path).to.match(/^"client";r=0;t=\d+$/);
      // Chosen by Accept, and passed through the compression as every answer is: it varies by both.
      expect(refused.headers.get('vary'), path).to.equal('Accept-Encoding, Accept');
      const page = await refused.text();
      expect(page, path).to.include(`<html lang="${lang}">`).and.include(says).and.include('<meta name="robots" content="noindex"/>');
      expect(page, path).to.include(`${page.includes('秒后再试') ? '请 ' : 'Try again in '}${refused.headers.get('retry-after')}`);
    }
    // The page's "try again" link names the address asked, on this site whatever it was written as.
    const retry = (page: string) => /<a href="([^"]*)">(?:Try again|再试一次)<\/a>/.exec(page)?.[1];
    expect(retry(await (await server.get('/en/timeline/?year=2025', { headers: html })).text())).to.equal('/en/timeline/?year=2025');
    expect(retry(await (await server.get('//evil.example/x?a=1', { headers: html })).text())).to.equal('/evil.example/x?a=1');
    const api = await server.get('/api/v1/specimens?lang=en', { headers: html });
    expect(api.status).to.equal(429);
    expect(api.headers.get('content-type')).to.match(/^application\/problem\+json/);
    const program = await server.get('/en/');
    expect(program.status).to.equal(429);
    expect(program.headers.get('content-type')).to.match(/^application\/problem\+json/);
    // Accept chose problem+json over the page: a shared cache must keep the two apart.
    expect(program.headers.get('vary')).to.equal('Accept-Encoding, Accept');
    expect(api.headers.get('vary')).to.equal('Accept-Encoding');
  });

  it('does not count preflights, health probes or static assets', async () => {
    server = await serverWith({ rateLimitReads: 1 });
    for (let i = 0; i < 3; i += 1) {
      const preflight = await server.get('/api/v1/specimens', { method: 'OPTIONS', headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'GET' } });
      expect(preflight.status).to.equal(204);
      expect((await server.get('/healthz')).status).to.equal(200);
      expect((await server.get('/readyz')).status).to.equal(200);
      expect((await server.get('/assets/site.css')).status).to.equal(200);
    }
    expect((await server.get('/api/v1/specimens?lang=en')).status).to.equal(200);
    expect((await server.get('/api/v1/specimens?lang=en')).status).to.equal(429);
  });

  it('does not count conditional requests answered 304, and counts those answered in full; over the limit, refuses them unanswered', async () => {
    server = await serverWith({ rateLimitReads: 2 });
    const first = await server.get('/api/v1/specimens?lang=en');
    expect(first.headers.get('ratelimit')).to.match(/^"client";r=1;/);
    const etag = first.headers.get('etag') ?? '';
    for (let i = 0; i < 5; i += 1) {
      const revalidated = await server.get('/api/v1/specimens?lang=en', { headers: { 'If-None-Match': etag } });
      expect(revalidated.status).to.equal(304);
      expect(revalidated.headers.get('ratelimit')).to.equal(null);
      expect(revalidated.headers.get('ratelimit-policy')).to.equal('"client";q=2;w=60');
    }
    // A conditional request whose tag no longer matches gets the body and counts.
    const changed = await server.get('/api/v1/specimens?lang=en&limit=1', { headers: { 'If-None-Match': etag } });
    expect(changed.status).to.equal(200);
    expect(changed.headers.get('ratelimit')).to.match(/^"client";r=0;/);
    const refused = await server.get('/api/v1/specimens?lang=en&limit=2', { headers: { 'If-None-Match': etag, 'Accept-Encoding': 'gzip' } });
    expect(refused.status).to.equal(429);
    expect(refused.headers.get('content-type')).to.match(/^application\/problem\+json/);
    expect(refused.headers.get('etag')).to.equal(null);
    expect(refused.headers.get('cache-control')).to.equal(null);
    expect(((await refused.json()) as Problem).status).to.equal(429);
    // Over the limit, a conditional read is refused before it is answered: with any made-up tag the whole answer would be computed for each.
    const over = await server.get('/api/v1/specimens?lang=en', { headers: { 'If-None-Match': etag } });
    expect(over.status).to.equal(429);
    expect(over.headers.get('ratelimit')).to.match(/^"client";r=0;/);
    expect((await server.get('/api/v1/specimens?lang=en')).status).to.equal(429);
  });

  it('counts a read with If-None-Match: *, which matches any answer and so revalidates nothing the client holds', async () => {
    const limited = await serverWith({ rateLimitReads: 2 });
    server = limited;
    const starred = (query: string) => limited.get(`/api/v1/specimens?${query}`, { headers: { 'If-None-Match': '*' } });
    const first = await starred('q=pelican');
    expect(first.status).to.equal(304);
    expect(first.headers.get('ratelimit')).to.match(/^"client";r=1;/);
    expect((await starred('q=bicycle')).headers.get('ratelimit')).to.match(/^"client";r=0;/);
    expect((await starred('q=kite')).status).to.equal(429);
    expect((await limited.get('/api/v1/specimens?q=kite', { headers: { 'If-None-Match': '"other", *' } })).status).to.equal(429);
  });

  it('counts each call of an MCP batch as a request: a batch that does not fit what is left is refused whole', async () => {
    server = await serverWith({ rateLimitReads: 10 });
    const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_specimens', arguments: { q: 'factory', limit: 2 } } });
    const post = (body: unknown) => server?.get('/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: JSON.stringify(body) }) as Promise<Response>;
    const five = await post([1, 2, 3, 4, 5].map(call));
    expect(five.status).to.equal(200);
    expect(((await five.json()) as unknown[]).length).to.equal(5);
    expect(five.headers.get('ratelimit')?.replace(/t=\d+/, 't=T')).to.equal('"client";r=5;t=T');
    // Eight more do not fit in the 5 left (the POST counts one of them): refused whole, the rest still there.
    const eight = await post([1, 2, 3, 4, 5, 6, 7, 8].map(call));
    expect(eight.status).to.equal(429);
    expect(eight.headers.get('retry-after')).to.match(/^\d+$/);
    const problem = (await eight.json()) as Problem;
    expect(problem.detail).to.contain('this batch makes 8 calls').and.contain('5 fit');
    // A notification is no call: one call and a notification cost one request.
    const one = await post([call(9), { jsonrpc: '2.0', method: 'notifications/initialized' }]);
    expect(one.status).to.equal(200);
    expect(one.headers.get('ratelimit')?.replace(/t=\d+/, 't=T')).to.equal('"client";r=3;t=T');
  });

  it('is off when set to 0: no headers, no refusals', async () => {
    server = await serverWith({ rateLimitReads: 0 });
    for (let i = 0; i < 5; i += 1) {
      const answer = await server.get('/api/v1/specimens?lang=en');
      expect(answer.status).to.equal(200);
      expect(answer.headers.get('ratelimit')).to.equal(null);
    }
  });

  describe('ingest', () => {
    async function tokenFor(target: TestServer, name: string): Promise<string> {
      const secret = generateSecret();
      await target.backend.tokens.createToken(name, ['ingest'], secretSha256(secret));
      return secret;
    }
    const post = (target: TestServer, secret: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
      target.get(path, { method: 'POST', headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });

    it('limits requests per token, each token on its own count', async () => {
      server = await serverWith({ rateLimitIngest: 2 });
      const [first, second] = [await tokenFor(server, 'first'), await tokenFor(server, 'second')];
      const statuses = [];
      for (let i = 0; i < 3; i += 1) statuses.push((await post(server, first, '/api/v1/ingest', makeSubmission({ sourceUrl: `https://github.com/demo-owner/work-${i}` }))).status);
      expect(statuses).to.deep.equal([202, 202, 429]);
      const other = await post(server, second, '/api/v1/ingest', makeSubmission({ sourceUrl: 'https://github.com/demo-owner/other' }));
      expect(other.status).to.equal(202);
      expect(other.headers.get('ratelimit-policy')).to.equal('"ingest";q=2;w=60');
      expect(other.headers.get('ratelimit')).to.match(/^"ingest";r=1;t=\d+$/);
    });

    it('refuses a batch past the daily quota whole, and replays do not count', async () => {
      server = await serverWith({ ingestDailyQuota: 3 });
      const secret = await tokenFor(server, 'quota');
      const batch = (from: number, count: number) => ({ submissions: Array.from({ length: count }, (_, i) => makeSubmission({ sourceUrl: `https://github.com/demo-owner/batch-${from + i}` })) });
      const first = await post(server, secret, '/api/v1/ingest/batch', batch(0, 2), { 'Idempotency-Key': 'batch-one' });
      expect(first.status).to.equal(202);
      const replay = await post(server, secret, '/api/v1/ingest/batch', batch(0, 2), { 'Idempotency-Key': 'batch-one' });
      expect(replay.status).to.equal(202);
      expect(replay.headers.get('idempotent-replayed')).to.equal('true');
      const over = await post(server, secret, '/api/v1/ingest/batch', batch(2, 2));
      expect(over.status).to.equal(429);
      const retryAfter = Number(over.headers.get('retry-after'));
      expect(retryAfter).to.be.within(1, 86_400);
      const problem = (await over.json()) as Problem;
      expect(problem.type).to.match(/\/problems\/quota-exceeded$/);
      expect(problem.detail).to.contain('2 were made today, so 1 more can be accepted');
      expect((await server.backend.submissions.countByStatus()).queued).to.equal(2);
      expect((await post(server, secret, '/api/v1/ingest/batch', batch(4, 1))).status).to.equal(202);
      expect((await post(server, secret, '/api/v1/ingest', makeSubmission({ sourceUrl: 'https://github.com/demo-owner/last' }))).status).to.equal(429);
    });
  });
});
