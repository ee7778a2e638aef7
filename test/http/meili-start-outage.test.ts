/**
 * `npm start` on the Meilisearch deployment (over the embedded store) while Meilisearch cannot be
 * reached: the service starts and serves what needs no search (record pages, ingest and the
 * publisher, exports, /healthz), answers searches and /readyz 503 with Retry-After, and a worker
 * that dies meanwhile is replaced by one that serves too (it had died opening the index, every
 * 1.5 s, and with one worker the service was down). Once Meilisearch answers, the index settings
 * are applied and search comes back.
 * - always: nothing listens at MEILI_URL (a closed loopback port), alone and with one worker;
 * - MEILI_URL: through a reverse proxy whose upstream is gone (its HTML 502), then back;
 * - MEILI_BIN: a Meilisearch of the test's own, down before the start and started later, then
 *   killed with SIGKILL together with the worker (the audit's steps) and started again.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { generateSecret, secretSha256 } from '../../src/auth/secrets.ts';
import { WITHOUT_SEARCH_WARNINGS, openBackend } from '../../src/backend.ts';
import { meiliClient } from '../../src/search/meili/meili-search.ts';
import type { MeiliSearchOptions } from '../../src/search/meili/meili-search.ts';
import { MAX_TOTAL_HITS, RANKING_RULES, indexName } from '../../src/search/meili/settings.ts';
import { eventually } from '../helpers/backend.ts';
import { makeRecord, makeSubmission } from '../helpers/factories.ts';
import { ImageServer, lineDrawingPng } from '../helpers/image-server.ts';
import { closedAddress, dropMeiliIndexes, meiliBinary, sharedMeili, startMeiliProcess, startMeiliProxy, uniqueMeiliOptions } from '../helpers/meili.ts';
import { freePort } from '../helpers/server-process.ts';
import { temporaryDataDir } from '../helpers/server.ts';

const secret = generateSecret();
const record = makeRecord({ sourceUrl: 'https://github.com/outage-owner/lantern', title: { zh: '灯笼', en: 'Outagelantern drawing' } });

/** A data folder holding one record and an ingest token, as a running archive's would. */
async function archiveFolder(): Promise<string> {
  const dataDir = temporaryDataDir();
  const backend = await openBackend({ databaseFile: join(dataDir, 'archive.sqlite') }, { migrate: true });
  await backend.store.putRecords([record]);
  await backend.tokens.createToken('outage-bot', ['ingest'], secretSha256(secret));
  await backend.close();
  return dataDir;
}

interface Service {
  url: string;
  child: ChildProcess;
  /** The JSON lines it logged, request lines left out. */
  lines(): { msg: string; pid?: number; [field: string]: unknown }[];
  output(): string;
  /** Waits until a worker (other than `not`) has logged that it listens, and gives its process id. */
  listeningWorker(not?: number): Promise<number>;
  stop(): Promise<number | null>;
}

/** npm start on the folder with this Meilisearch, waiting for /healthz (not /readyz: it is not ready). */
async function startService(dataDir: string, search: MeiliSearchOptions, workers: number, images: ImageServer): Promise<Service> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      ARCHIVE_DATA_DIR: dataDir,
      ARCHIVE_BASE_URL: url,
      ARCHIVE_WORKERS: String(workers),
      ARCHIVE_DEMO: '0',
      ARCHIVE_DRAIN_MS: '0',
      ARCHIVE_LOG_LEVEL: 'info',
      ARCHIVE_SEARCH: 'meili',
      MEILI_URL: search.url,
      MEILI_API_KEY: search.apiKey ?? '',
      MEILI_INDEX_PREFIX: search.indexPrefix ?? '',
      ARCHIVE_UPLOAD_HOSTS: images.host,
      ARCHIVE_ALLOW_PRIVATE_MEDIA: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines = (): { msg: string; pid?: number }[] =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; pid?: number })
      .filter((line) => line.msg !== 'request');
  const service: Service = {
    url,
    child,
    lines,
    output: () => output,
    listeningWorker: async (not) => {
      let pid: number | undefined;
      await eventually(async () => {
        pid = lines().find((line) => line.msg === 'listening' && line.pid !== not)?.pid;
        return pid !== undefined;
      }, 30_000, `no worker listened:\n${output}`);
      return pid ?? 0;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
  await eventually(async () => {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${output}`);
    return fetch(`${url}/healthz`).then((response) => response.ok, () => false);
  }, 45_000, `the service did not answer /healthz:\n${output}`);
  return service;
}

/** Status and Retry-After of a GET. */
async function statusOf(url: string): Promise<[number, string | null]> {
  const response = await fetch(url);
  await response.arrayBuffer();
  return [response.status, response.headers.get('retry-after')];
}

/** What a service started without search answers: everything but search, which is 503 with Retry-After, as /readyz is. */
async function expectServingWithoutSearch(service: Service): Promise<void> {
  expect(await statusOf(`${service.url}/healthz`)).to.deep.equal([200, null]);
  expect(await statusOf(`${service.url}/readyz`)).to.deep.equal([503, '5']);
  expect(await statusOf(`${service.url}/api/v1/specimens?q=Outagelantern&lang=en`)).to.deep.equal([503, '5']);
  expect(await statusOf(`${service.url}/en/?q=Outagelantern`)).to.deep.equal([503, '5']);
  expect(await statusOf(`${service.url}/api/v1/specimens/${record.id}`)).to.deep.equal([200, null]);
  expect(await statusOf(`${service.url}/en/specimens/${record.id}/`)).to.deep.equal([200, null]);
  expect(await statusOf(`${service.url}/en/data/catalog.json`)).to.deep.equal([200, null]);
}

/** Submits a work whose preview the image server holds, and waits until the publisher has published it. */
async function publishWork(service: Service, images: ImageServer, n: number): Promise<void> {
  const headers = { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' };
  const submission = makeSubmission({ sourceUrl: `https://github.com/outage-owner/work-${n}`, title: { zh: `停机作品${n}`, en: `Outagework ${n}` }, media: [images.url(`/outage-${n}.png`)] });
  const accepted = await fetch(`${service.url}/api/v1/ingest`, { method: 'POST', headers, body: JSON.stringify(submission) });
  expect(accepted.status, await accepted.clone().text()).to.equal(202);
  const { submissionId } = (await accepted.json()) as { submissionId: string };
  await eventually(async () => {
    const answer = (await (await fetch(`${service.url}/api/v1/ingest/${submissionId}`, { headers })).json()) as { status: string };
    return answer.status === 'published';
  }, 30_000, `the publisher did not publish the work while Meilisearch was down:\n${service.output()}`);
}

describe('npm start while Meilisearch cannot be reached', function () {
  this.timeout(120_000);
  const images = new ImageServer();
  let dataDir = '';
  let service: Service | undefined;

  before(async () => {
    await images.start();
    for (let n = 1; n <= 6; n += 1) images.files.set(`/outage-${n}.png`, { type: 'image/png', body: await lineDrawingPng(7300 + n) });
  });
  after(async () => images.stop());
  beforeEach(async () => {
    dataDir = await archiveFolder();
  });
  afterEach(async () => {
    await service?.stop();
    service = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  for (const workers of [0, 1]) {
    it(`starts without it (nothing listens at MEILI_URL), serves everything but search and publishes; each process says so once (${workers} workers)`, async () => {
      const url = await closedAddress();
      service = await startService(dataDir, { url, apiKey: 'start-outage-key', indexPrefix: 'start_outage_' }, workers, images);
      await expectServingWithoutSearch(service);
      await publishWork(service, images, 1);
      const told = service.lines().filter((line) => line.msg.startsWith('going on without search'));
      expect(told.map((line) => line.msg)).to.satisfy((messages: string[]) => messages.every((message) => message === WITHOUT_SEARCH_WARNINGS.server));
      // The primary, and the process that serves (the primary again when it serves alone).
      expect(told).to.have.length(2);
      expect(told[0]?.problem).to.equal(`Nothing listens at MEILI_URL=${url} (ECONNREFUSED): start Meilisearch there, or set MEILI_URL to its address (for example http://meilisearch:7700).`);
      expect(service.output(), 'the key is never logged').not.to.include('start-outage-key');
      // The expected waits are no crash: the sync waits for the index with a warning, and each process names the outage of its searches once, without a stack.
      expect(service.lines().filter((line) => line.level === 'error')).to.deep.equal([]);
      const unavailable = service.lines().filter((line) => line.msg === 'backing service unavailable');
      expect(unavailable.length).to.be.within(1, workers + 1);
      expect(new Set(unavailable.map((line) => line.pid)).size).to.equal(unavailable.length);
      expect(unavailable.map((line) => line.reason)).to.satisfy((reasons: unknown[]) => reasons.every((reason) => String(reason).includes('ECONNREFUSED')));
      expect(JSON.stringify(service.lines()), 'no stack').not.to.include('"stack"');
      expect(service.lines().filter((line) => line.msg === 'the publisher thread exited; starting another')).to.deep.equal([]);
      if (workers === 1) {
        // The audit's crash loop: a worker that dies during the outage is replaced by one that serves.
        const first = await service.listeningWorker();
        process.kill(first, 'SIGKILL');
        await service.listeningWorker(first);
        await new Promise((resolve) => setTimeout(resolve, 3000));
        expect(service.lines().filter((line) => line.msg === 'worker exited; starting another')).to.have.length(1);
        await expectServingWithoutSearch(service);
      }
      expect(await service.stop(), service.output()).to.equal(0);
    });
  }

  const shared = sharedMeili();
  if (!shared) {
    console.log('SKIPPED npm start through a proxy whose Meilisearch comes back: set MEILI_URL to run it');
  } else {
    it('starts while a proxy in front of Meilisearch answers 502, and applies the index settings and searches once it is back', async () => {
      const options = uniqueMeiliOptions(shared, 'start_outage');
      const proxy = await startMeiliProxy(await closedAddress());
      try {
        service = await startService(dataDir, { ...options, url: proxy.url }, 1, images);
        await expectServingWithoutSearch(service);
        proxy.setUpstream(shared.url);
        await expectSearchBack(service, options);
      } finally {
        await service?.stop();
        await proxy.close();
        await dropMeiliIndexes(options);
      }
    });
  }

  const binary = meiliBinary();
  if (!binary) {
    console.log('SKIPPED npm start with a Meilisearch of its own killed and started again: set MEILI_BIN to run it');
  } else {
    it('starts within a few seconds while its Meilisearch hangs (SIGSTOP), and searches once it runs on', async () => {
      const meili = await startMeiliProcess(binary);
      const options = { url: meili.url, apiKey: meili.apiKey, indexPrefix: 'start_hung_' };
      try {
        await meili.pause();
        const started = Date.now();
        service = await startService(dataDir, options, 1, images);
        // Each process gives up after a 2 s health probe (READY_TIMEOUT_MS), not after the 30 s a request may take.
        expect(Date.now() - started, service.output()).to.be.below(15_000);
        expect(service.lines().filter((line) => line.msg.startsWith('going on without search')).map((line) => line.problem)).to.have.length(2);
        meili.resume();
        await expectSearchBack(service, options);
      } finally {
        meili.resume();
        await service?.stop();
        await meili.destroy();
      }
    });

    it('while its index is filled after Meilisearch comes back, a search answers 503 with Retry-After, never 200 with 0 results, and the sync starts at once', async () => {
      const meili = await startMeiliProcess(binary);
      const options = { url: meili.url, apiKey: meili.apiKey, indexPrefix: 'start_fill_' };
      try {
        await meili.stop('SIGKILL');
        service = await startService(dataDir, options, 1, images);
        await expectServingWithoutSearch(service);
        // Long enough for the sync's backoff to reach 20 s (5 s, 10 s, 20 s): the audit's 25–30 s of 200/0.
        await new Promise((resolve) => setTimeout(resolve, 12_000));
        await meili.restart();
        const answers: string[] = [];
        const started = Date.now();
        await eventually(
          async () => {
            const response = await fetch(`${service?.url}/api/v1/specimens?q=Outagelantern&lang=en`);
            const body = (await response.json()) as { total?: number };
            answers.push(response.status === 200 ? `200 ${body.total} ${response.headers.get('cache-control')}` : `${response.status} ${response.headers.get('retry-after')}`);
            return response.status === 200 && body.total === 1;
          },
          30_000,
          'the record was never found',
        );
        expect(answers.filter((answer) => !answer.startsWith('503 5') && !answer.startsWith('200 1 '))).to.deep.equal([]);
        expect(Date.now() - started, 'found within a few seconds of Meilisearch answering, not after the sync backoff').to.be.below(12_000);
        expect(service.lines().filter((line) => line.msg.startsWith('search documents were written by an older mapping'))).to.deep.equal([]);
      } finally {
        await service?.stop();
        await meili.destroy();
      }
    });

    it('starts while its Meilisearch is down and searches once it runs; a worker killed with Meilisearch is replaced by one that serves', async () => {
      const meili = await startMeiliProcess(binary);
      const options = { url: meili.url, apiKey: meili.apiKey, indexPrefix: 'start_outage_' };
      try {
        await meili.stop('SIGKILL');
        service = await startService(dataDir, options, 1, images);
        await expectServingWithoutSearch(service);
        await meili.restart();
        await expectSearchBack(service, options);
        // The audit's steps: kill -9 Meilisearch, then kill -9 a worker.
        await meili.stop('SIGKILL');
        const worker = await service.listeningWorker();
        process.kill(worker, 'SIGKILL');
        await service.listeningWorker(worker);
        await new Promise((resolve) => setTimeout(resolve, 3000));
        expect(service.lines().filter((line) => line.msg === 'worker exited; starting another')).to.have.length(1);
        await expectServingWithoutSearch(service);
        await publishWork(service, images, 2);
        await meili.restart();
        await eventually(async () => (await statusOf(`${service?.url}/readyz`))[0] === 200, 30_000, 'the replacement worker never became ready');
        await eventually(async () => (await totalOf(service, '/api/v1/specimens?q=Outagework&lang=en&kind=gallery')) === 1, 30_000, 'a work published while Meilisearch was down was never found');
      } finally {
        await service?.stop();
        await meili.destroy();
      }
    });
  }
});

describe('npm run indexer while Meilisearch cannot be reached', function () {
  this.timeout(60_000);
  let dataDir = '';
  beforeEach(async () => {
    dataDir = await archiveFolder();
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  /** Runs the indexer on the folder with Meilisearch at `url` until `done` says so of its output (or it exits); its exit code and output. */
  async function indexer(url: string, done: (output: string) => boolean): Promise<{ code: number | null; output: string }> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'indexer/main.ts'], {
      env: { ...process.env, ARCHIVE_DATA_DIR: dataDir, ARCHIVE_LOG_LEVEL: 'info', ARCHIVE_SEARCH: 'meili', MEILI_URL: url, MEILI_INDEX_PREFIX: 'indexer_outage_' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let signalled = false;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const check = (chunk: Buffer): void => {
      output += chunk.toString();
      if (signalled || !done(output)) return;
      signalled = true;
      child.kill('SIGTERM');
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await exited;
    clearTimeout(killer);
    return { code, output };
  }

  it('starts its publisher without it (nothing listens at MEILI_URL) and stops cleanly; a MEILI_URL that is not Meilisearch still stops it', async () => {
    const url = await closedAddress();
    const started = await indexer(url, (output) => output.includes('"msg":"search index sync started"'));
    expect(started.code, started.output).to.equal(0);
    // Worded for the indexer, which serves no searches and no /readyz; the server keeps its own line.
    expect(started.output).to.include(`"msg":${JSON.stringify(WITHOUT_SEARCH_WARNINGS.indexer)}`);
    expect(started.output).not.to.include('/readyz');
    expect(started.output).to.include('"msg":"publisher started"');
    // A web server that is not Meilisearch is a configuration to mend, not an outage to wait out.
    const other = createServer((_request, response) => response.writeHead(404).end());
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      const refused = await indexer(otherUrl, () => false);
      expect(refused.code, refused.output).to.equal(1);
      expect(refused.output).to.include(`MEILI_URL=${otherUrl} is not the address of a Meilisearch server`);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });
});

async function totalOf(service: Service | undefined, path: string): Promise<number> {
  const response = await fetch(`${service?.url}${path}`);
  if (!response.ok) return -1;
  return ((await response.json()) as { total: number }).total;
}

/** Once Meilisearch answers: /readyz 200, the index settings applied, and the store's records found. */
async function expectSearchBack(service: Service, options: MeiliSearchOptions): Promise<void> {
  await eventually(async () => (await statusOf(`${service.url}/readyz`))[0] === 200, 30_000, `never ready once Meilisearch answered:\n${service.output()}`);
  const settings = await meiliClient(options).index(indexName('zh', options.indexPrefix)).getSettings();
  expect([settings.rankingRules, settings.pagination?.maxTotalHits]).to.deep.equal([[...RANKING_RULES], MAX_TOTAL_HITS]);
  await eventually(async () => (await totalOf(service, '/api/v1/specimens?q=Outagelantern&lang=en')) === 1, 30_000, 'the record was never found');
  expect(service.lines().filter((line) => line.msg === 'Meilisearch opened: index settings applied, searching again').length).to.be.at.least(1);
}
