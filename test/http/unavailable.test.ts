import { expect } from 'chai';
import Koa from 'koa';
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo, Server as TcpServer, Socket } from 'node:net';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { Meilisearch } from 'meilisearch';
import { mongoBackend } from '../../src/backend.ts';
import { createApp } from '../../src/http/app.ts';
import { UnavailableLog, problems } from '../../src/http/middlewares/problems.ts';
import { createLogger } from '../../src/logger.ts';
import { isMeiliUnavailable } from '../../src/search/meili/unavailable.ts';
import { SqliteSearchIndex } from '../../src/search/sqlite/sqlite-search.ts';
import { MongoArchiveDatabase } from '../../src/store/mongo/mongo-database.ts';
import { DEFAULT_MONGO_TIMEOUTS, mongoClientOptions } from '../../src/store/mongo/timeouts.ts';
import { isMongoUnavailable } from '../../src/store/mongo/unavailable.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { migrateSchema } from '../../src/store/sqlite/schema.ts';
import { isSqliteUnavailable } from '../../src/store/sqlite/unavailable.ts';
import { failoverErrors } from '../helpers/mongo-errors.ts';
import { freePort } from '../helpers/server-process.ts';
import { temporaryDataDir } from '../helpers/server.ts';
import { errorOf } from '../helpers/error-of.ts';

describe('unreachable backing services', function () {
  this.timeout(20_000);
  let closedPort = 0;
  before(async () => {
    closedPort = await freePort();
  });

  it('recognises the clients’ own errors for an address where nothing listens', async () => {
    const meili = await errorOf(() => new Meilisearch({ host: `http://127.0.0.1:${closedPort}` }).health());
    expect(isMeiliUnavailable(meili)).to.equal(true);
    const client = new MongoClient(`mongodb://127.0.0.1:${closedPort}`, { serverSelectionTimeoutMS: 300 });
    const mongo = await errorOf(() => client.db('archive').command({ ping: 1 }));
    await client.close();
    expect(isMongoUnavailable(mongo)).to.equal(true);
    for (const other of [new Error('boom'), new TypeError('x'), undefined]) {
      expect([isMeiliUnavailable(other), isMongoUnavailable(other), isSqliteUnavailable(other)]).to.deep.equal([false, false, false]);
    }
    expect(isSqliteUnavailable(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }))).to.equal(true);
  });

  it('answers 503 problem+json with Retry-After for them, and a bare 500 for anything else', async () => {
    const unreachable = await errorOf(() => new Meilisearch({ host: `http://127.0.0.1:${closedPort}` }).health());
    const app = new Koa();
    app.use(problems('https://archive.test', createLogger('silent'), isMeiliUnavailable));
    app.use(async (ctx) => {
      throw ctx.path === '/unreachable' ? unreachable : new Error('a bug');
    });
    const server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const down = await fetch(`${base}/unreachable`);
      expect(down.status).to.equal(503);
      expect(down.headers.get('retry-after')).to.equal('5');
      expect(down.headers.get('content-type')).to.match(/^application\/problem\+json/);
      expect(((await down.json()) as { type: string }).type).to.equal('https://archive.test/problems/service-unavailable');
      expect((await fetch(`${base}/bug`)).status).to.equal(500);
    } finally {
      server.close();
    }
  });

  it('logs an outage once, naming its cause without a stack, and again when the cause changes; every request still answers 503', async () => {
    const unreachable = await errorOf(() => new Meilisearch({ host: `http://127.0.0.1:${closedPort}` }).health());
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    const lines: { level: string; msg: string; [field: string]: unknown }[] = [];
    const app = new Koa();
    app.use(problems('https://archive.test', createLogger('info', (line) => lines.push(JSON.parse(line) as { level: string; msg: string })), (error) => error === busy || isMeiliUnavailable(error)));
    app.use(async (ctx) => {
      throw ctx.path.startsWith('/busy') ? busy : unreachable;
    });
    const server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const path of ['/search/1', '/search/2', '/search/3', '/busy/1', '/busy/2']) {
        const answer = await fetch(`${base}${path}`);
        expect([answer.status, answer.headers.get('retry-after')]).to.deep.equal([503, '5']);
      }
    } finally {
      server.close();
    }
    const told = lines.filter((line) => line.msg === 'backing service unavailable');
    expect(told.map((line) => [line.level, line.path])).to.deep.equal([
      ['warn', '/search/1'],
      ['warn', '/busy/1'],
    ]);
    expect(told[0]?.reason).to.match(/ \(cause: ECONNREFUSED: connect ECONNREFUSED 127\.0\.0\.1:\d+\)$/);
    expect(told[1]).to.deep.include({ reason: 'SQLITE_BUSY: database is locked', previous: { cause: `MeilisearchRequestError: ${String(told[0]?.reason).replace(/^.* \(cause: (.*)\)$/, '$1')}`, requests: 3 } });
    expect(JSON.stringify(lines)).not.to.include('"stack"');
  });

  it('logs the same cause again once no request met it for a while (a new outage)', () => {
    const lines: string[] = [];
    let now = 0;
    const log = new UnavailableLog(createLogger('info', (line) => lines.push(line)), 60_000, () => now);
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:7700'), { code: 'ECONNREFUSED' });
    for (const at of [0, 5_000, 64_000, 123_999, 184_000]) {
      now = at;
      log.note('GET', '/api/v1/specimens', refused);
    }
    expect(lines).to.have.length(2);
  });

  it('answers 503 with Retry-After for MongoDB failover, shutdown, write-concern and exhausted-transaction errors', async () => {
    const errors = failoverErrors();
    const app = new Koa();
    app.use(problems('https://archive.test', createLogger('silent'), isMongoUnavailable));
    app.use(async (ctx) => {
      throw errors[decodeURIComponent(ctx.path.slice(1))] ?? new Error('a bug');
    });
    const server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const name of Object.keys(errors)) {
        const response = await fetch(`${base}/${encodeURIComponent(name)}`);
        expect([name, response.status, response.headers.get('retry-after')]).to.deep.equal([name, 503, '5']);
      }
    } finally {
      server.close();
    }
  });
});

describe('a MongoDB store that does not answer, behind the real app', function () {
  this.timeout(20_000);
  /** Accepts connections and never replies: a server hung, or cut off in the middle of a failover. */
  let silent: TcpServer;
  const sockets = new Set<Socket>();
  let dataDir: string;

  before(async () => {
    silent = createTcpServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    dataDir = temporaryDataDir();
  });

  after(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('bounds every stage of an operation, since the driver ignores timeoutMS', () => {
    const options = mongoClientOptions(DEFAULT_MONGO_TIMEOUTS);
    expect(options).to.include({ serverSelectionTimeoutMS: 10_000, connectTimeoutMS: 5_000, waitQueueTimeoutMS: 5_000, socketTimeoutMS: 20_000 });
    expect(options.writeConcern).to.deep.include({ w: 'majority', wtimeoutMS: 10_000 });
    expect(options).not.to.have.property('timeoutMS');
  });

  it('answers reads and ingest 503 with Retry-After once the stage bounds pass, not after the driver defaults', async () => {
    const port = (silent.address() as AddressInfo).port;
    const timeouts = { serverSelectionMs: 600, connectMs: 300, waitQueueMs: 300, operationMs: 300, socketMs: 500, transactionMs: 800 };
    const database = MongoArchiveDatabase.withoutConnecting({ uri: `mongodb://127.0.0.1:${port}/?directConnection=true`, database: 'archive' }, timeouts);
    const searchDb = openDatabase(join(dataDir, 'search.sqlite'));
    migrateSchema(searchDb);
    const backend = await mongoBackend(database, { search: new SqliteSearchIndex(searchDb), isUnavailable: isSqliteUnavailable });
    const app = createApp({ baseUrl: 'http://archive.test', mediaDir: join(dataDir, 'media'), responseCacheBytes: 1024 * 1024, cacheMaxAgeSeconds: 60, allowedOrigins: [] }, backend, createLogger('silent'));
    const server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const started = performance.now();
      const read = await fetch(`${base}/api/v1/specimens/svg-gpt-4-8d5be076?lang=en`);
      const ingest = await fetch(`${base}/api/v1/ingest`, { method: 'POST', headers: { authorization: `Bearer ${'a'.repeat(43)}`, 'content-type': 'application/json' }, body: '{}' });
      const elapsed = performance.now() - started;
      for (const response of [read, ingest]) {
        expect(response.status).to.equal(503);
        expect(response.headers.get('retry-after')).to.equal('5');
        expect(((await response.json()) as { type: string }).type).to.equal('http://archive.test/problems/service-unavailable');
      }
      // The driver's own default is 30 s of server selection per operation.
      expect(elapsed).to.be.below(10_000);
      // A browser reading the site gets a page in the language of the address, with the same status and Retry-After.
      for (const [path, lang, words] of [['/en/', 'en', 'Temporarily unavailable'], ['/timeline/', 'zh', '暂时无法访问']]) {
        const page = await fetch(`${base}${path}`, { headers: { accept: 'text/html' } });
        expect(page.status, path).to.equal(503);
        expect(page.headers.get('retry-after'), path).to.equal('5');
        expect(page.headers.get('content-type'), path).to.match(/^text\/html/);
        expect(page.headers.get('vary'), path).to.equal('Accept-Encoding, Accept');
        const html = await page.text();
        expect(html, path).to.include(`<html lang="${lang === 'zh' ? 'zh-Hans' : 'en'}"`).and.include(words);
      }
    } finally {
      server.closeAllConnections();
      server.close();
      await backend.close();
    }
  });
});
