import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Publisher } from '../../indexer/publisher.ts';
import { publisherDependencies } from '../../indexer/run-publisher.ts';
import { generateSecret, secretSha256 } from '../../src/auth/secrets.ts';
import { embeddedBackend } from '../../src/backend.ts';
import type { Backend } from '../../src/backend.ts';
import { createApp } from '../../src/http/app.ts';
import { createLogger } from '../../src/logger.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import type { SqliteDatabase } from '../../src/store/sqlite/database.ts';
import { migrateSchema } from '../../src/store/sqlite/schema.ts';
import { isSqliteUnavailable, isSqliteWriteRefusal } from '../../src/store/sqlite/unavailable.ts';
import { WriteRefusals } from '../../src/store/write-refusals.ts';
import { eventually } from '../helpers/backend.ts';
import { ImageServer, lineDrawingPng } from '../helpers/image-server.ts';
import { temporaryDataDir } from '../helpers/server.ts';

/** SQLite's own limit on the pages of the file, as high as it goes: what a connection has unless told otherwise. */
const NO_PAGE_LIMIT = 1_073_741_823;
const REFUSAL_WINDOW_MS = 1_000;

describe('SQLite result codes: unavailable for now, or a bug', () => {
  const withCode = (code: string): Error => Object.assign(new Error(code), { code });

  it('takes busy, locked, full, I/O, read-only and cannot-open codes (extended ones too) for unavailable', () => {
    for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED', 'SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR_FSYNC', 'SQLITE_READONLY', 'SQLITE_READONLY_DBMOVED', 'SQLITE_CANTOPEN']) {
      expect([code, isSqliteUnavailable(withCode(code))]).to.deep.equal([code, true]);
    }
    expect(['SQLITE_BUSY', 'SQLITE_LOCKED'].map((code) => isSqliteWriteRefusal(withCode(code)))).to.deep.equal([false, false]);
    expect(['SQLITE_FULL', 'SQLITE_IOERR_SHORT_READ', 'SQLITE_READONLY', 'SQLITE_CANTOPEN_ISDIR'].map((code) => isSqliteWriteRefusal(withCode(code)))).to.deep.equal([true, true, true, true]);
  });

  it('leaves constraint, SQL, misuse and corruption errors to answer 500', () => {
    for (const code of ['SQLITE_CONSTRAINT', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_ERROR', 'SQLITE_MISUSE', 'SQLITE_RANGE', 'SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_FULLY_MADE_UP', 'ENOSPC']) {
      expect([code, isSqliteUnavailable(withCode(code))]).to.deep.equal([code, false]);
    }
  });
});

/**
 * The real app and publisher over a SQLite file that refuses writes: the connection's page limit
 * set to the pages the file has (SQLite answers SQLITE_FULL, "database or disk is full", as on a
 * full disk), or the connection made query-only (SQLITE_READONLY, as on a read-only mount).
 */
describe('an embedded store that refuses writes, behind the real app and publisher', function () {
  this.timeout(60_000);
  const images = new ImageServer();
  const secret = generateSecret();
  const logs: Record<string, unknown>[] = [];
  let dataDir = '';
  let db: SqliteDatabase;
  let backend: Backend;
  let server: Server;
  let base = '';
  let publisher: Publisher;
  let counter = 0;
  const accepted: string[] = [];

  before(async () => {
    await images.start();
    dataDir = temporaryDataDir();
    db = openDatabase(join(dataDir, 'archive.sqlite'));
    migrateSchema(db);
    backend = embeddedBackend(db, new WriteRefusals(isSqliteWriteRefusal, REFUSAL_WINDOW_MS));
    await backend.tokens.createToken('maintainer', ['ingest'], secretSha256(secret));
    const logger = createLogger('info', (line) => logs.push(JSON.parse(line) as Record<string, unknown>));
    publisher = new Publisher(publisherDependencies(backend, { allowPrivate: true, mediaDir: join(dataDir, 'media') }, logger), {
      owner: 'test-publisher',
      concurrency: 2,
      leaseMs: 5_000,
      maxAttempts: 3,
      pollMs: 50,
      retryDelayMs: 100,
      uploadHosts: [images.host],
    });
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const app = createApp({ baseUrl: base, mediaDir: join(dataDir, 'media'), responseCacheBytes: 1024 * 1024, cacheMaxAgeSeconds: 60, allowedOrigins: [] }, backend, logger, { submitted: () => publisher.wake() });
    server.on('request', app.callback());
  });

  after(async () => {
    await publisher.stop();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await backend.close();
    await images.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Posts a submission of a work of its own (a drawing of its own, so none is a duplicate of another). */
  async function submit(): Promise<Response> {
    counter += 1;
    images.files.set(`/drawing-${counter}.png`, { type: 'image/png', body: await lineDrawingPng(100 + counter) });
    const body = { sourceUrl: `https://github.com/demo-owner/full-disk-${counter}`, date: '2025-04-01', model: 'Full-Disk-Model', author: 'Demo Owner', format: 'svg', title: { zh: `作品${counter}`, en: `Work ${counter}` }, notes: { zh: '测试。', en: 'Test.' }, media: [images.url(`/drawing-${counter}.png`)] };
    return fetch(`${base}/api/v1/ingest`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${secret}` }, body: JSON.stringify(body) });
  }

  async function expectUnavailable(response: Response, what: string): Promise<void> {
    expect(response.status, what).to.equal(503);
    expect(response.headers.get('retry-after'), what).to.equal('5');
    expect(response.headers.get('content-type'), what).to.match(/^application\/problem\+json/);
    expect(((await response.json()) as { type: string }).type, what).to.equal(`${base}/problems/service-unavailable`);
  }

  it('answers ingest 503 with Retry-After once the disk is full, never 500, and /readyz not ready while reads go on', async () => {
    for (let i = 0; i < 2; i += 1) {
      const response = await submit();
      expect(response.status).to.equal(202);
      accepted.push(((await response.json()) as { submissionId: string }).submissionId);
    }
    expect((await fetch(`${base}/readyz`)).status).to.equal(200);
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    let refused: Response | undefined;
    for (let i = 0; i < 500 && !refused; i += 1) {
      const response = await submit();
      if (response.status === 202) accepted.push(((await response.json()) as { submissionId: string }).submissionId);
      else refused = response;
    }
    if (!refused) throw new Error('the page limit never refused a submission');
    await expectUnavailable(refused, 'ingest');
    expect(logs.some((line) => line.msg === 'backing service unavailable' && String(line.reason).includes('database or disk is full'))).to.equal(true);
    expect(logs.filter((line) => line.msg === 'request failed')).to.deep.equal([]);
    await expectUnavailable(await fetch(`${base}/readyz`), 'readyz');
    expect((await fetch(`${base}/api/v1/specimens`)).status).to.equal(200);
  });

  it('backs the publisher\'s claims off, doubling the wait, one line per step and one stack', async () => {
    // Full as well as query-only: every claim is refused, whichever rows it would touch.
    db.pragma('query_only = ON');
    const from = logs.length;
    publisher.start();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const failures = logs.slice(from).filter((line) => String(line.msg).startsWith('claiming a submission failed'));
    // Every 50 ms poll would be 40 lines; backing off from 100 ms, failures come at 0, 0.1, 0.3, 0.7 and 1.5 s.
    expect(failures.length).to.be.within(4, 6);
    expect(failures.map((line) => line.retryInMs)).to.deep.equal([100, 200, 400, 800, 1600, 3200].slice(0, failures.length));
    expect(failures.filter((line) => line.error !== undefined)).to.have.length(1);
    expect(String(failures[1]?.reason)).to.include('SQLITE_READONLY');
  });

  it('publishes what was queued and takes submissions again once the disk has room, and /readyz is ready', async () => {
    db.pragma('query_only = OFF');
    db.pragma(`max_page_count = ${NO_PAGE_LIMIT}`);
    await eventually(async () => logs.some((line) => line.msg === 'claiming submissions again'), 10_000, 'the publisher never claimed again');
    const after = await submit();
    expect(after.status).to.equal(202);
    accepted.push(((await after.json()) as { submissionId: string }).submissionId);
    await eventually(async () => (await backend.submissions.getSubmissions(accepted)).every((record) => record.status === 'published'), 30_000, 'not every accepted submission was published');
    await eventually(async () => (await fetch(`${base}/readyz`)).status === 200, REFUSAL_WINDOW_MS * 3, '/readyz stayed not ready');
  });
});
