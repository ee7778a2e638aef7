import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { freePort, getOnNewConnection, startServerProcess } from '../helpers/server-process.ts';
import type { ServerProcess } from '../helpers/server-process.ts';
import { temporaryDataDir } from '../helpers/server.ts';

/** The ports this suite serves on: fixed, in the range set aside for it. */

/** The JSON lines a server process wrote, parsed; other output is skipped. */
function logEntries(output: string): { msg?: string; path?: string; pid?: number }[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg?: string; path?: string; pid?: number });
}

/**
 * Every series of a Prometheus text answer that may only grow, keyed by its name and sorted
 * labels: all of a counter's, a histogram's buckets, sum and count, a summary's sum and count.
 * (Read here rather than with the text parser, which folds a labelled histogram's series together.)
 */
function cumulativeSeries(text: string): Map<string, number> {
  const types = new Map<string, string>();
  const series = new Map<string, number>();
  for (const line of text.split('\n')) {
    const declared = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (declared) types.set(declared[1] as string, declared[2] as string);
    const sampled = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!sampled) continue;
    const [, name = '', labelText = '', value = ''] = sampled;
    const type = types.get(name) ?? types.get(name.replace(/_(bucket|sum|count)$/, ''));
    const cumulative = type === 'counter' || type === 'histogram' || (type === 'summary' && /_(sum|count)$/.test(name));
    if (!cumulative) continue;
    const labels = [...labelText.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, labelValue]) => `${key}=${labelValue}`).sort();
    series.set(`${name}{${labels.join(',')}}`, Number(value));
  }
  return series;
}

async function scrapeText(url: string): Promise<string> {
  const response = await fetch(url);
  expect(response.status, url).to.equal(200);
  return response.text();
}

async function waitFor(what: string, done: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * `npm start` with two HTTP workers: a worker killed with SIGKILL (and replaced by the primary)
 * takes none of the counts it had shown with it. Prometheus reads any decrease of a counter as a
 * reset, so a decrease would show the survivors' whole lifetime as new traffic.
 */
describe('GET /metrics after a worker crashes', function () {
  this.timeout(90_000);
  const dataDir = temporaryDataDir();
  let server: ServerProcess;
  let metricsUrl = '';
  /** How many workers have started listening (the replacement of a killed one included). */
  const listening = () => logEntries(server.output()).filter((entry) => entry.msg === 'listening').length;

  before(async () => {
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    server = await startServerProcess(
      dataDir,
      { ARCHIVE_WORKERS: '2', ARCHIVE_DEMO: '1', ARCHIVE_METRICS_PORT: String(metricsPort), ARCHIVE_LOG_LEVEL: 'info', ARCHIVE_RATE_LIMIT_READS: '0' },
    );
    await waitFor('both workers to listen', () => listening() === 2);
  });
  after(async () => {
    await server?.stop('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('never shows a counter, histogram count, sum or bucket lower than before', async () => {
    const requests = 40;
    for (let i = 0; i < requests; i += 1) {
      // A page size of its own per request, so every request reaches the search engine.
      const { status } = await getOnNewConnection(`${server.url}/api/v1/specimens?q=pelican&limit=${i + 1}`);
      expect(status).to.equal(200);
    }
    const answering = new Set(logEntries(server.output()).flatMap((entry) => (entry.msg === 'request' && entry.path === '/api/v1/specimens' && entry.pid ? [entry.pid] : [])));
    expect(answering.size, 'both workers answered').to.equal(2);
    const before = cumulativeSeries(await scrapeText(metricsUrl));
    expect(before.get('archive_http_requests_total{method=GET,route=/api/v1/specimens,status=200}')).to.equal(requests);
    expect(before.get('archive_search_duration_seconds_count{}')).to.equal(requests);

    const [victim] = answering;
    const listeningBefore = listening();
    process.kill(victim as number, 'SIGKILL');
    await waitFor('the primary to replace the killed worker', () => listening() > listeningBefore);

    const after = cumulativeSeries(await scrapeText(metricsUrl));
    const decreased = [...before].filter(([key, value]) => (after.get(key) ?? 0) < value).map(([key, value]) => `${key}: ${value} → ${after.get(key) ?? 'absent'}`);
    expect(decreased, 'series that went down').to.deep.equal([]);

    // Counting goes on from there, the replacement's requests added to the total.
    for (let i = 0; i < 4; i += 1) expect((await getOnNewConnection(`${server.url}/api/v1/specimens?q=pelican&limit=${i + 1}`)).status).to.equal(200);
    const later = cumulativeSeries(await scrapeText(metricsUrl));
    expect(later.get('archive_http_requests_total{method=GET,route=/api/v1/specimens,status=200}')).to.equal(requests + 4);
  });
});
