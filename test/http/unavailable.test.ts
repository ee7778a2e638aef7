import { expect } from 'chai';
import Koa from 'koa';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MongoClient } from 'mongodb';
import { Meilisearch } from 'meilisearch';
import { problems } from '../../src/http/middlewares/problems.ts';
import { createLogger } from '../../src/logger.ts';
import { isMeiliUnavailable } from '../../src/search/meili/unavailable.ts';
import { isMongoUnavailable } from '../../src/store/mongo/unavailable.ts';
import { isSqliteUnavailable } from '../../src/store/sqlite/unavailable.ts';
import { freePort } from '../helpers/server-process.ts';

/** The error the official client really throws when nothing listens at the address. */
async function errorOf(attempt: () => Promise<unknown>): Promise<unknown> {
  try {
    await attempt();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

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
});
