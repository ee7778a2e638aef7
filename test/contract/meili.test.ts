/**
 * The search-index contract against a real Meilisearch. Runs only when MEILI_URL is set (and
 * MEILI_API_KEY when the server has a master key); each test gets indexes under a prefix of its
 * own, deleted after it.
 */
import { expect } from 'chai';
import { MeiliSearchIndex, meiliClient } from '../../src/search/meili/meili-search.ts';
import type { MeiliSearchOptions } from '../../src/search/meili/meili-search.ts';
import { rebuildIndexes } from '../../src/search/meili/rebuild.ts';
import { MAX_TOTAL_HITS, SEARCH_CUTOFF_MS, freshIndexName, indexName, indexSettings } from '../../src/search/meili/settings.ts';
import { settle } from '../../src/search/meili/tasks.ts';
import { makeRecord } from '../helpers/factories.ts';
import { dropMeiliIndexes, sharedMeili, uniqueMeiliOptions } from '../helpers/meili.ts';
import { searchIndexContract } from './search-index.contract.ts';

const server = sharedMeili();

if (!server) {
  console.log('SKIPPED Meilisearch contract suite: set MEILI_URL to run it');
} else {
  describe('on a shared server', function () {
    // Each write waits for its tasks: one batch per language, and Meilisearch runs one batch at a
    // time for every index on the server. A batch costs about a second whatever it holds on a
    // server with the default indexing memory on a large machine (docs/deploy.md), and waits behind
    // other suites' batches; a test here makes up to four writes besides opening and filling.
    this.timeout(60_000);
    searchIndexContract('Meilisearch', async () => {
      const options = uniqueMeiliOptions(server, 'contract');
      const index = await MeiliSearchIndex.open(options);
      return { index, dispose: async () => dropMeiliIndexes(options) };
    });
  });

  describe('Meilisearch adapter on a real server', function () {
    this.timeout(60_000);
    let options: MeiliSearchOptions;
    beforeEach(() => {
      options = uniqueMeiliOptions(server, 'contract');
    });
    afterEach(async () => dropMeiliIndexes(options));

    it('applies settings idempotently: a second open sends no settings task', async () => {
      await MeiliSearchIndex.open(options);
      const client = meiliClient(options);
      const before = await client.tasks.getTasks({ indexUids: [indexName('zh', options.indexPrefix)], types: ['settingsUpdate'] });
      await MeiliSearchIndex.open(options);
      const after = await client.tasks.getTasks({ indexUids: [indexName('zh', options.indexPrefix)], types: ['settingsUpdate'] });
      expect(after.total).to.equal(before.total);
    });

    it('lifts the depth limit and the search cutoff of an index made with the former settings when it opens', async () => {
      const client = meiliClient(options);
      const uid = indexName('en', options.indexPrefix);
      await settle(client.index(uid).updateSettings({ ...indexSettings('en'), pagination: { maxTotalHits: 10_050 }, searchCutoffMs: null }));
      await MeiliSearchIndex.open(options);
      const settings = await client.index(uid).getSettings();
      expect(settings.pagination?.maxTotalHits).to.equal(MAX_TOTAL_HITS);
      expect(settings.searchCutoffMs, 'no search cut short').to.equal(SEARCH_CUTOFF_MS);
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

    it('counts exactly past 10,050 matches (the former maxTotalHits)', async function () {
      this.timeout(120_000);
      const index = await MeiliSearchIndex.open(options);
      const many = Array.from({ length: 10_100 }, (_, i) => makeRecord({ sourceUrl: `https://example.org/many/${i}`, title: { zh: '许多', en: 'Many lanterns' } }));
      await Promise.all(Array.from({ length: Math.ceil(many.length / 2000) }, (_, i) => index.upsert(many.slice(i * 2000, (i + 1) * 2000))));
      expect((await index.search({ lang: 'en', text: 'lanterns', filters: {}, order: 'relevance', offset: 0, limit: 5 })).total).to.equal(10_100);
      expect((await index.search({ lang: 'en', filters: {}, order: 'newest', offset: 10_000, limit: 50 })).ids).to.have.length(50);
    });
  });
}
