import { expect } from 'chai';
import { rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { generateSecret, secretSha256 } from '../../src/auth/secrets.ts';
import { embeddedBackend } from '../../src/backend.ts';
import type { Backend } from '../../src/backend.ts';
import { createApp } from '../../src/http/app.ts';
import { createLogger } from '../../src/logger.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { migrateSchema } from '../../src/store/sqlite/schema.ts';
import { makeRecord, makeSubmission } from '../helpers/factories.ts';
import { temporaryDataDir } from '../helpers/server.ts';

/**
 * The real app over a SQLite file removed (then replaced) under it while it serves: SQLite goes on
 * reading and writing the removed file without an error, so the store watches its path.
 */
describe('an embedded store whose database file is removed while the service runs', function () {
  this.timeout(30_000);
  const secret = generateSecret();
  let dataDir = '';
  let file = '';
  let backend: Backend;
  let server: Server;
  let base = '';

  before(async () => {
    dataDir = temporaryDataDir();
    file = join(dataDir, 'archive.sqlite');
    const db = openDatabase(file);
    migrateSchema(db);
    backend = embeddedBackend(db);
    await backend.tokens.createToken('maintainer', ['ingest'], secretSha256(secret));
    await backend.store.putRecords([makeRecord()]);
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const app = createApp({ baseUrl: base, mediaDir: join(dataDir, 'media'), responseCacheBytes: 1024 * 1024, cacheMaxAgeSeconds: 60, allowedOrigins: [] }, backend, createLogger('error'));
    server.on('request', app.callback());
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await backend.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const submit = (): Promise<Response> => fetch(`${base}/api/v1/ingest`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${secret}` }, body: JSON.stringify(makeSubmission()) });
  const readiness = async (): Promise<{ status: number; detail: string }> => {
    const response = await fetch(`${base}/readyz`);
    return { status: response.status, detail: response.status === 200 ? '' : ((await response.json()) as { detail: string }).detail };
  };

  it('answers /readyz and writes 503, saying where the open file can be copied back from, while reads go on', async () => {
    expect((await submit()).status).to.equal(202);
    expect((await readiness()).status).to.equal(200);
    rmSync(file);
    const removed = await readiness();
    expect(removed.status).to.equal(503);
    expect(removed.detail).to.match(new RegExp(`^The archive's database file ${file} was removed while the service ran: .*copy the file this process still holds open \\(/proc/${process.pid}/fd/\\d+\\) back to ${file} before it stops`));
    const refused = await submit();
    expect(refused.status).to.equal(503);
    expect(refused.headers.get('retry-after')).to.equal('5');
    expect((await fetch(`${base}/api/v1/specimens`)).status).to.equal(200);
    // Another file put where it was is not the archive either.
    writeFileSync(file, '');
    expect((await readiness()).detail).to.match(/was replaced by another file while the service ran/);
    expect((await submit()).status).to.equal(503);
  });
});
