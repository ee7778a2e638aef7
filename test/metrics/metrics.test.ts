import { expect } from 'chai';
import { Registry } from 'prom-client';
import { observations, sample, scrape } from '../helpers/metrics.ts';
import { PublisherMetrics } from '../../src/metrics/archive-metrics.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { generateSecret, secretSha256 } from '../../src/auth/secrets.ts';
import { makeSubmission } from '../helpers/factories.ts';
import { startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';

describe('metrics kept by the app', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ demo: true, limits: { rateLimitReads: 40, rateLimitIngest: 2 } });
  });
  after(async () => server.close());

  it('counts requests by route pattern and status sent, with their latency', async () => {
    const route = { method: 'GET', route: '/api/v1/specimens/:id' };
    /** The latency histogram of one GET route, read from prom-client (the text parser folds labelled histograms together). */
    const latency = async (pattern: string) => {
      const values = (await server.metrics.requestSeconds.get()).values.filter((value) => value.labels.route === pattern && value.labels.method === 'GET');
      const count = values.find((value) => value.metricName === 'archive_http_request_duration_seconds_count')?.value ?? 0;
      const infinityBucket = values.find((value) => value.metricName === 'archive_http_request_duration_seconds_bucket' && (value.labels as Record<string, unknown>).le === '+Inf')?.value ?? 0;
      return { count, infinityBucket };
    };
    const latencyBefore = await latency(route.route);
    const before = await scrape(server.metrics.registry);
    const id = ((await (await server.get('/api/v1/specimens?limit=1')).json()) as { items: { id: string }[] }).items[0]?.id;
    for (let i = 0; i < 3; i += 1) await (await server.get(`/api/v1/specimens/${id}?lang=${i % 2 ? 'en' : 'zh'}`)).arrayBuffer();
    await (await server.get('/api/v1/specimens/svg-none-00000000')).arrayBuffer();
    await (await server.get('/no/such/address')).arrayBuffer();
    await (await server.get('/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })).arrayBuffer();
    const after = await scrape(server.metrics.registry);
    const moved = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    expect(moved('archive_http_requests_total', { ...route, status: '200' })).to.equal(3);
    expect(moved('archive_http_requests_total', { ...route, status: '404' })).to.equal(1);
    expect(moved('archive_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).to.equal(1);
    expect(moved('archive_http_requests_total', { method: 'POST', route: '/mcp', status: '200' })).to.equal(1);
    expect(after.find((entry) => entry.name === 'archive_http_request_duration_seconds')?.type).to.equal('HISTOGRAM');
    expect((await latency(route.route)).count - latencyBefore.count).to.equal(4);
    expect((await latency(route.route)).infinityBucket).to.equal((await latency(route.route)).count);
  });

  it('times the search engine once per query', async () => {
    const before = observations(await scrape(server.metrics.registry), 'archive_search_duration_seconds');
    await (await server.get('/api/v1/specimens?q=pelican&limit=7')).arrayBuffer();
    await (await server.get('/api/v1/timeline?limit=7')).arrayBuffer();
    expect(observations(await scrape(server.metrics.registry), 'archive_search_duration_seconds') - before).to.equal(2);
  });

  it('counts rate-limit refusals by policy', async () => {
    const secret = generateSecret();
    await server.backend.tokens.createToken('metrics-bot', ['ingest'], secretSha256(secret));
    const before = await scrape(server.metrics.registry);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await server.get('/api/v1/ingest', { method: 'POST', headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' }, body: JSON.stringify(makeSubmission({ sourceUrl: `https://github.com/metrics/work-${i}` })) });
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    expect(statuses).to.deep.equal([202, 202, 429]);
    let clientRefused = 0;
    for (let i = 0; i < 45 && clientRefused === 0; i += 1) {
      const response = await server.get('/healthz');
      await response.arrayBuffer();
      const page = await server.get(`/api/v1/specimens?limit=${(i % 50) + 1}`);
      if (page.status === 429) clientRefused += 1;
      await page.arrayBuffer();
    }
    expect(clientRefused).to.equal(1);
    const after = await scrape(server.metrics.registry);
    expect(sample(after, 'archive_rate_limit_refusals_total', { policy: 'ingest' }) - sample(before, 'archive_rate_limit_refusals_total', { policy: 'ingest' })).to.equal(1);
    expect(sample(after, 'archive_rate_limit_refusals_total', { policy: 'client' }) - sample(before, 'archive_rate_limit_refusals_total', { policy: 'client' })).to.equal(1);
    expect(sample(after, 'archive_http_requests_total', { method: 'POST', route: '/api/v1/ingest', status: '429' })).to.equal(1);
    // Refused before routing, still counted under the route it asked for.
    expect(sample(after, 'archive_http_requests_total', { method: 'GET', route: '/api/v1/specimens', status: '429' })).to.equal(1);
  });

  it('reports the publisher queue depth from the store at each scrape', async () => {
    const registry = new Registry();
    const publisher = new PublisherMetrics(registry, server.backend.submissions);
    const queued = sample(await scrape(registry), 'archive_publisher_queue_depth', { status: 'queued' });
    expect(queued).to.equal((await server.backend.submissions.countByStatus()).queued ?? 0);
    const result = await server.backend.submissions.enqueue([{ tokenName: 'metrics-bot', submission: makeSubmission({ sourceUrl: 'https://github.com/metrics/queued-work' }) }]);
    expect(result.kind).to.equal('accepted');
    expect(sample(await scrape(registry), 'archive_publisher_queue_depth', { status: 'queued' })).to.equal(queued + 1);
    publisher.observe('needs_review');
    publisher.observe('needs_review');
    expect(sample(await scrape(registry), 'archive_publisher_submissions_total', { outcome: 'needs_review' })).to.equal(2);
    expect(sample(await scrape(registry), 'archive_publisher_submissions_total', { outcome: 'published' })).to.equal(0);
  });
});

describe('metrics settings (ARCHIVE_METRICS_PORT, ARCHIVE_METRICS_HOST)', () => {
  it('serves no metrics unless a port is set, and then on 127.0.0.1 by default', () => {
    expect(loadConfig({}).metrics).to.equal(undefined);
    expect(loadConfig({ ARCHIVE_METRICS_PORT: '9464' }).metrics).to.deep.equal({ host: '127.0.0.1', port: 9464 });
    expect(loadConfig({ ARCHIVE_METRICS_PORT: '9464', ARCHIVE_METRICS_HOST: '0.0.0.0' }).metrics).to.deep.equal({ host: '0.0.0.0', port: 9464 });
  });

  it('refuses a bad port and the public port', () => {
    expect(() => loadConfig({ ARCHIVE_METRICS_PORT: 'x' })).to.throw(ConfigError, /ARCHIVE_METRICS_PORT/);
    expect(() => loadConfig({ ARCHIVE_METRICS_PORT: '0' })).to.throw(ConfigError, /ARCHIVE_METRICS_PORT/);
    expect(() => loadConfig({ PORT: '8080', ARCHIVE_METRICS_PORT: '8080' })).to.throw(ConfigError, /differ from PORT/);
  });
});
