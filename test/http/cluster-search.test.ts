import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { generateSecret, secretSha256 } from '../../src/auth/secrets.ts';
import { openBackend } from '../../src/backend.ts';
import { syntheticCatalog } from '../../src/catalog/synthetic.ts';
import { ImageServer, lineDrawingPng } from '../helpers/image-server.ts';
import { eventually, searchFollowsStore } from '../helpers/backend.ts';
import { getOnNewConnection, startServerProcess } from '../helpers/server-process.ts';
import type { ServerProcess } from '../helpers/server-process.ts';
import { temporaryDataDir } from '../helpers/server.ts';

interface Page {
  total: number;
  items: { id: string }[];
}

/**
 * `npm start` with two workers whose search caches are warm, including the empty answers for a
 * word no record holds yet; the primary's publisher then publishes a work with that word. Every
 * worker must find it at once, by word, prefix and filter, without a restart.
 */
describe('search in every worker follows what the publisher writes', function () {
  this.timeout(90_000);
  const images = new ImageServer();
  const dataDir = temporaryDataDir();
  const secret = generateSecret();
  let server: ServerProcess;

  before(async () => {
    await images.start();
    images.files.set('/fresh.png', { type: 'image/png', body: await lineDrawingPng(4242) });
    const backend = await openBackend({ databaseFile: join(dataDir, 'archive.sqlite') }, { migrate: true });
    await backend.store.putRecords([...syntheticCatalog(3000, '2026-11-20')]);
    await backend.store.setCatalogUpdated('2026-11-20');
    await backend.tokens.createToken('cluster-bot', ['ingest'], secretSha256(secret));
    await backend.close();
    server = await startServerProcess(dataDir, {
      ARCHIVE_WORKERS: '2',
      ARCHIVE_UPLOAD_HOSTS: images.host,
      ARCHIVE_ALLOW_PRIVATE_MEDIA: '1',
      ARCHIVE_RATE_LIMIT_READS: '0',
      ARCHIVE_RATE_LIMIT_INGEST: '0',
    });
  });
  after(async () => {
    await server?.stop('SIGTERM');
    await images.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The answers of several requests for one search, spread over the workers. */
  async function searchEverywhere(query: string): Promise<Page[]> {
    const pages: Page[] = [];
    for (let i = 0; i < 6; i += 1) {
      // Each page size is a URL of its own, so no worker answers from its response cache.
      const { status, body } = await getOnNewConnection(`${server.url}/api/v1/specimens?${query}&limit=${40 + i}`);
      expect(status, query).to.equal(200);
      pages.push(JSON.parse(body) as Page);
    }
    return pages;
  }

  it('finds a newly published work by word, prefix and filter in every worker', async () => {
    const word = 'zanzibarquux';
    const filtered = `q=${word}&format=svg&lang=en`;
    for (const query of [`q=${word}&lang=en`, `q=${word.slice(0, 7)}&lang=en`, filtered, 'format=svg&lang=en']) {
      for (const page of await searchEverywhere(query)) if (query.includes(word.slice(0, 7))) expect(page.total, query).to.equal(0);
    }
    const svgBefore = (await searchEverywhere('format=svg&lang=en'))[0]?.total ?? 0;

    const response = await fetch(`${server.url}/api/v1/ingest`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json', 'User-Agent': 'cluster-test/1.0' },
      body: JSON.stringify({
        sourceUrl: 'https://github.com/cluster-test/fresh-work',
        date: '2025-06-01',
        model: 'Cluster-Test-Model',
        author: 'Cluster Test',
        format: 'svg',
        title: { zh: '新作品', en: `A ${word} lantern` },
        notes: { zh: '测试。', en: 'Test.' },
        media: [images.url('/fresh.png')],
      }),
    });
    expect(response.status).to.equal(202);
    const { statusUrl } = (await response.json()) as { statusUrl: string };
    let recordIds: string[];
    const deadline = Date.now() + 30_000;
    for (;;) {
      const status = (await (await fetch(statusUrl, { headers: { Authorization: `Bearer ${secret}` } })).json()) as { status: string; recordIds: string[] };
      if (status.status === 'published') {
        recordIds = status.recordIds;
        break;
      }
      expect(status.status).to.be.oneOf(['queued', 'processing']);
      if (Date.now() > deadline) throw new Error(`still ${status.status}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(recordIds).to.have.length(2);
    // A search engine that follows the store (Meilisearch) has the work once the primary's index sync passed it, within about a second.
    if (searchFollowsStore()) await eventually(async () => (await searchEverywhere(`q=${word}&lang=en`)).every((page) => page.total === 2), 30_000, 'the index sync never caught up');

    for (const query of [`q=${word}&lang=en`, `q=${word.slice(0, 7)}&lang=en`, filtered]) {
      for (const page of await searchEverywhere(query)) {
        expect(page.total, query).to.equal(2);
        expect(page.items.map((item) => item.id).sort(), query).to.deep.equal([...recordIds].sort());
      }
    }
    for (const page of await searchEverywhere('format=svg&lang=en')) expect(page.total).to.equal(svgBefore + 2);
  });
});
