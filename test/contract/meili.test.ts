/**
 * The search-index contract against a real Meilisearch. Runs only when MEILI_URL is set (and
 * MEILI_API_KEY when the server has a master key); each test gets indexes under a prefix of its
 * own, deleted after it.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { LANGS } from '../../src/domain/record.ts';
import { MeiliSearchIndex, meiliClient } from '../../src/search/meili/meili-search.ts';
import type { MeiliSearchOptions } from '../../src/search/meili/meili-search.ts';
import { deleteIndex, rebuildIndexes } from '../../src/search/meili/rebuild.ts';
import { freshIndexName, indexName } from '../../src/search/meili/settings.ts';
import { makeRecord } from '../helpers/factories.ts';
import { searchIndexContract } from './search-index.contract.ts';

const url = process.env.MEILI_URL;

function uniqueOptions(meiliUrl: string): MeiliSearchOptions {
  return { url: meiliUrl, ...(process.env.MEILI_API_KEY ? { apiKey: process.env.MEILI_API_KEY } : {}), indexPrefix: `contract_${randomBytes(6).toString('hex')}_` };
}

async function dropAll(options: MeiliSearchOptions): Promise<void> {
  const client = meiliClient(options);
  for (const lang of LANGS) {
    await deleteIndex(client, indexName(lang, options.indexPrefix));
    await deleteIndex(client, freshIndexName(lang, options.indexPrefix));
  }
}

if (!url) {
  console.log('SKIPPED Meilisearch contract suite: set MEILI_URL to run it');
} else {
  describe('on a shared server', function () {
    // Every test creates its own indexes and settings; a busy server takes seconds per task (a
    // document task took 2 s on the shared 2-core machine, so the 32 one-record writes of the
    // same-day test take over a minute).
    this.timeout(300_000);
    searchIndexContract('Meilisearch', async () => {
      const options = uniqueOptions(url);
      const index = await MeiliSearchIndex.open(options);
      return { index, dispose: async () => dropAll(options) };
    });
  });

  describe('Meilisearch adapter on a real server', function () {
    this.timeout(180_000);
    let options: MeiliSearchOptions;
    beforeEach(() => {
      options = uniqueOptions(url);
    });
    afterEach(async () => dropAll(options));

    it('applies settings idempotently: a second open sends no settings task', async () => {
      await MeiliSearchIndex.open(options);
      const client = meiliClient(options);
      const before = await client.tasks.getTasks({ indexUids: [indexName('zh', options.indexPrefix)], types: ['settingsUpdate'] });
      await MeiliSearchIndex.open(options);
      const after = await client.tasks.getTasks({ indexUids: [indexName('zh', options.indexPrefix)], types: ['settingsUpdate'] });
      expect(after.total).to.equal(before.total);
    });

    it('rebuilds into fresh indexes and swaps them in, leaving no fresh index behind', async () => {
      const index = await MeiliSearchIndex.open(options);
      const stale = makeRecord({ sourceUrl: 'https://example.org/stale' });
      await index.upsert([stale]);
      const records = [makeRecord({ sourceUrl: 'https://example.org/a' }), makeRecord({ sourceUrl: 'https://example.org/b' })];
      async function* stream() {
        yield* records;
      }
      const report = await rebuildIndexes(options, stream(), () => {}, 1);
      expect(report.documents).to.equal(2);
      expect(await index.count()).to.equal(2);
      const hits = await index.search({ lang: 'en', filters: {}, order: 'newest', offset: 0, limit: 10 });
      expect(hits.ids).to.have.members(records.map((record) => record.id));
      const names = (await meiliClient(options).getRawIndexes({ limit: 1000 })).results.map((raw) => raw.uid);
      expect(names).to.not.include(freshIndexName('zh', options.indexPrefix));
    });

    it('counts exactly past maxTotalHits', async function () {
      this.timeout(120_000);
      const index = await MeiliSearchIndex.open(options);
      const many = Array.from({ length: 10_100 }, (_, i) => makeRecord({ sourceUrl: `https://example.org/many/${i}`, title: { zh: '许多', en: 'Many lanterns' } }));
      for (let i = 0; i < many.length; i += 2000) await index.upsert(many.slice(i, i + 2000));
      expect((await index.search({ lang: 'en', text: 'lanterns', filters: {}, order: 'relevance', offset: 0, limit: 5 })).total).to.equal(10_100);
      expect((await index.search({ lang: 'en', filters: {}, order: 'newest', offset: 10_000, limit: 50 })).ids).to.have.length(50);
    });
  });
}
