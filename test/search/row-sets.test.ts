import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { RowSetCache, RowUniverse } from '../../src/search/sqlite/row-sets.ts';
import { rankRows } from '../../src/search/sqlite/relevance.ts';
import { SqliteSearchIndex } from '../../src/search/sqlite/sqlite-search.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { migrateSchema } from '../../src/store/sqlite/schema.ts';
import { syntheticCatalog } from '../../src/catalog/synthetic.ts';
import { distinctSearches } from '../../scripts/bench/queries.ts';
import type { FacetName, SearchQuery } from '../../src/domain/search-query.ts';
import { temporaryDataDir } from '../helpers/server.ts';
import { makeRecord } from '../helpers/factories.ts';
import { queryOfPath } from '../helpers/search.ts';
import { seededRandom } from '../../src/random.ts';
import type { CanonicalRecord } from '../../src/domain/record.ts';
import { SearchCaches } from '../../src/search/sqlite/search-caches.ts';
import { SearchChangeLog } from '../../src/search/sqlite/change-log.ts';
import { SearchIndexWriter } from '../../src/search/sqlite/index-writer.ts';
import { textColumnValues } from '../../src/search/sqlite/index-row.ts';
import { SqliteRecordStore } from '../../src/store/sqlite/sqlite-store.ts';
import { FACET_TOKEN } from '../../src/search/sqlite/facets.ts';

/**
 * The features the bench's paths do not ask for, added to every few queries: facets, a second
 * filter value, a date range, OR and an exclusion in the text.
 */
/** A database of the test's own with a writing index that never uses row sets; readers open the same file. */
function ownWriter(): { ownDir: string; path: string; writer: SqliteSearchIndex } {
  const ownDir = temporaryDataDir();
  const path = join(ownDir, 'archive.sqlite');
  const writerDb = openDatabase(path);
  migrateSchema(writerDb);
  return { ownDir, path, writer: new SqliteSearchIndex(writerDb, 'never') };
}

function enriched(query: SearchQuery, index: number): SearchQuery {
  const text = query.text;
  const variant: SearchQuery = { ...query, filters: { ...query.filters } };
  if (index % 3 === 0) variant.facets = ['format', 'kind', 'year', 'source', 'model'];
  if (index % 4 === 1) variant.filters.format = [...(query.filters.format ?? ['svg']), 'game'];
  if (index % 5 === 2) Object.assign(variant.filters, { from: '2023-01-01', to: '2025-06-30' });
  if (index % 7 === 3) variant.filters.since = '2026-11-20';
  if (text && index % 4 === 3) variant.text = `${text} OR lantern`;
  if (text && index % 6 === 5) variant.text = `${text} -pelican`;
  if (index % 9 === 4) variant.filters.model = ['GPT-4o', 'claude 3.5 sonnet'];
  return variant;
}


describe('row sets', () => {
  const universe = new RowUniverse(Float64Array.from([10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200, 210, 220, 230, 240, 250, 260, 270, 280, 290, 300, 310, 320, 330, 340, 350]));

  it('maps sort keys to bits, ignoring keys outside the universe', () => {
    const set = universe.setOf([10, 15, 40, 330, 350, 999]);
    expect(set.count()).to.equal(4);
    expect(set.page(0, 10, true).map((ordinal) => universe.keyAt(ordinal))).to.deep.equal([10, 40, 330, 350]);
    expect(set.page(0, 10, false).map((ordinal) => universe.keyAt(ordinal))).to.deep.equal([350, 330, 40, 10]);
    expect(set.has(0)).to.equal(true);
    expect(set.has(1)).to.equal(false);
  });

  it('maps any ascending keys to the ordinals of those in a large universe, sparse or dense (randomised, seeded)', () => {
    const random = seededRandom(7);
    const keys = new Float64Array(20_000);
    let key = 0;
    for (let i = 0; i < keys.length; i += 1) keys[i] = key += 1 + Math.floor(random() * 5);
    const large = new RowUniverse(keys);
    for (let round = 0; round < 40; round += 1) {
      const share = [0.0002, 0.003, 0.05, 0.5][round % 4] as number;
      const asked: number[] = [];
      const expected: number[] = [];
      for (let ordinal = 0; ordinal < keys.length; ordinal += 1) {
        // A key just below each row's, which no row has, now and then.
        if (random() < share) asked.push((keys[ordinal] as number) - 0.5);
        if (random() < share) {
          asked.push(keys[ordinal] as number);
          expected.push(ordinal);
        }
      }
      if (round % 3 === 0) asked.push(key + 10);
      const set = large.setOf(asked);
      expect(set.page(0, keys.length, true), `round ${round}`).to.deep.equal(expected);
    }
  });

  it('combines sets with AND, OR and AND NOT across word boundaries', () => {
    const a = universe.setOf([10, 20, 320, 330, 340]);
    const b = universe.setOf([20, 330, 350]);
    const keys = (set: ReturnType<RowUniverse['setOf']>) => set.page(0, 100, true).map((ordinal) => universe.keyAt(ordinal));
    expect(keys(a.and(b))).to.deep.equal([20, 330]);
    expect(keys(a.or(b))).to.deep.equal([10, 20, 320, 330, 340, 350]);
    expect(keys(a.andNot(b))).to.deep.equal([10, 320, 340]);
    expect(universe.all().count()).to.equal(35);
    expect(universe.none().count()).to.equal(0);
  });

  it('pages from an offset in either direction', () => {
    const all = universe.all();
    expect(all.page(33, 5, true).map((ordinal) => universe.keyAt(ordinal))).to.deep.equal([340, 350]);
    expect(all.page(2, 3, false).map((ordinal) => universe.keyAt(ordinal))).to.deep.equal([330, 320, 310]);
    expect(all.page(40, 3, true)).to.deep.equal([]);
  });

  describe('the cache of row sets', () => {
    const entry = () => ({ set: universe.all(), covered: universe.size, kills: universe.kills });
    // A set and its key; a cache of 32 has room for 4 on trial (two generations of two), 12 read ahead and 16 kept.
    const unit = universe.all().bytes + 64;
    const bound = unit * 32;
    const flood = (cache: RowSetCache, from: number, count: number): void => {
      for (let i = from; i < from + count; i += 1) {
        cache.nextSearch();
        cache.set(`one-off ${i}`, entry());
      }
    };

    it('keeps a set a later search asks again while one search\'s sets push out one another', () => {
      const cache = new RowSetCache(bound);
      cache.nextSearch();
      cache.set('word', entry());
      cache.set('phrase', entry());
      expect(cache.get('phrase'), 'asked again by the same search').to.not.equal(undefined);
      cache.nextSearch();
      expect(cache.get('word'), 'asked by a later search').to.not.equal(undefined);
      flood(cache, 0, 100);
      expect(cache.get('word')).to.not.equal(undefined);
      expect(cache.get('phrase')).to.equal(undefined);
      expect(cache.get('one-off 0')).to.equal(undefined);
      expect(cache.get('one-off 99')).to.not.equal(undefined);
      expect(cache.bytes).to.be.at.most(bound);
    });

    it('keeps a set read again after it left among the kept ones at once', () => {
      const cache = new RowSetCache(bound);
      cache.nextSearch();
      cache.set('typo', entry());
      flood(cache, 0, 10);
      expect(cache.get('typo')).to.equal(undefined);
      cache.nextSearch();
      cache.set('typo', entry());
      flood(cache, 10, 100);
      expect(cache.get('typo')).to.not.equal(undefined);
    });

    it('keeps sets read ahead until the rows change, in 3/8 of the bound; past it, among the rest', () => {
      const cache = new RowSetCache(bound);
      // 3/8 of 32 units hold at least 12 (more where keys are shorter than a unit counts); the last of 40 go among the rest.
      for (let i = 0; i < 40; i += 1) cache.keep(`read ahead ${i}`, entry());
      flood(cache, 0, 100);
      for (let i = 0; i < 60; i += 1) {
        cache.nextSearch();
        cache.set(`asked twice ${i}`, entry());
        cache.nextSearch();
        expect(cache.get(`asked twice ${i}`)).to.not.equal(undefined);
        expect(cache.bytes).to.be.at.most(bound);
      }
      for (let i = 0; i < 12; i += 1) expect(cache.get(`read ahead ${i}`), `read ahead ${i}`).to.not.equal(undefined);
      expect(cache.get('read ahead 39')).to.equal(undefined);
      // A set read ahead and brought up to date after a write stays where it was.
      cache.set('read ahead 0', entry());
      flood(cache, 100, 100);
      expect(cache.get('read ahead 0')).to.not.equal(undefined);
      cache.clear();
      expect(cache.get('read ahead 1')).to.equal(undefined);
      expect(cache.bytes).to.equal(0);
    });

    it('drops the least recently used of the kept sets at the byte bound', () => {
      const cache = new RowSetCache(bound);
      for (let i = 0; i < 60; i += 1) {
        cache.nextSearch();
        cache.set(`kept ${i}`, entry());
        cache.nextSearch();
        expect(cache.get(`kept ${i}`)).to.not.equal(undefined);
        expect(cache.get('kept 0'), 'asked by every search').to.not.equal(undefined);
        expect(cache.bytes).to.be.at.most(bound);
      }
      expect(cache.get('kept 1')).to.equal(undefined);
      for (const i of [0, 58, 59]) expect(cache.get(`kept ${i}`), `kept ${i}`).to.not.equal(undefined);
    });
  });

  it('answers the record id of an ordinal and of a live key, appended rows included', () => {
    const withIds = new RowUniverse(Float64Array.from([10, 20, 30]), ['a-1', 'b-2', 'c-3']);
    expect([0, 1, 2].map((ordinal) => withIds.idAt(ordinal))).to.deep.equal(['a-1', 'b-2', 'c-3']);
    const ordinal = withIds.append(25, 'new-id-'.repeat(20));
    expect(withIds.idAt(ordinal)).to.equal('new-id-'.repeat(20));
    expect(withIds.idOfKey(25)).to.equal('new-id-'.repeat(20));
    withIds.kill(20);
    expect(withIds.idOfKey(20)).to.equal(undefined);
    expect(withIds.idOfKey(30)).to.equal('c-3');
    expect(() => withIds.append(40)).to.throw(/id of sort key 40/);
  });

  it('after appends and kills, counts live rows and pages them in sort-key order', () => {
    const random = seededRandom(7);
    for (let round = 0; round < 200; round += 1) {
      const start = Array.from({ length: 40 + Math.floor(random() * 60) }, (_, i) => (i + 1) * 10);
      const changing = new RowUniverse(Float64Array.from(start));
      const live = new Set(start);
      const early = changing.setOf(start.filter(() => random() < 0.5));
      for (let step = 0; step < 30; step += 1) {
        const key = Math.floor(random() * 1100);
        if (random() < 0.35) {
          changing.kill(key);
          live.delete(key);
        } else {
          changing.append(key);
          live.add(key);
        }
      }
      const members = [...live].filter(() => random() < 0.6).sort((a, b) => a - b);
      const set = changing.setOf(members);
      expect(set.count(), 'members').to.equal(members.length);
      expect(changing.all().count(), 'live rows').to.equal(live.size);
      expect(changing.rows).to.equal(live.size);
      // A set made before the changes keeps only the rows that are still live once masked.
      const earlyLive = early.and(changing.all());
      for (const ordinal of changing.page(earlyLive, 0, 1000, true)) expect(live.has(changing.keyAt(ordinal))).to.equal(true);
      for (const ascending of [true, false]) {
        const ordered = ascending ? members : [...members].reverse();
        const offset = Math.floor(random() * (members.length + 3));
        const limit = 1 + Math.floor(random() * 12);
        const page = changing.page(set, offset, limit, ascending).map((ordinal) => changing.keyAt(ordinal));
        expect(page, `round ${round}, offset ${offset}, limit ${limit}, ascending ${ascending}`).to.deep.equal(ordered.slice(offset, offset + limit));
      }
    }
  });

  it('ranks title over metadata over text, rarer terms higher, ties in given order', () => {
    const rows = ['notes', 'title', 'meta', 'notes-too'];
    const ranked = rankRows(rows, [{ idf: 1, inTitle: (row) => row === 'title', inMetadata: (row) => row === 'meta' }]);
    expect(ranked).to.deep.equal(['title', 'meta', 'notes', 'notes-too']);
    const rare = rankRows(['common-in-title', 'rare-in-title'], [
      { idf: 0.1, inTitle: (row) => row === 'common-in-title', inMetadata: () => false },
      { idf: 3, inTitle: (row) => row === 'rare-in-title', inMetadata: () => false },
    ]);
    expect(rare).to.deep.equal(['rare-in-title', 'common-in-title']);
  });
});

describe('search with row sets and with FTS5 counting give the same answers', function () {
  this.timeout(60_000);
  let dataDir = '';
  let withSets: SqliteSearchIndex;
  let withoutSets: SqliteSearchIndex;

  before(async () => {
    dataDir = temporaryDataDir();
    const db = openDatabase(join(dataDir, 'archive.sqlite'));
    migrateSchema(db);
    withSets = new SqliteSearchIndex(db, 'always');
    withoutSets = new SqliteSearchIndex(db, 'never');
    await withSets.upsert([...syntheticCatalog(3000, '2026-11-20')]);
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('on 600 distinct searches: words, pairs, prefixes, typos, Chinese, filters, orders and pages', async () => {
    const { paths } = distinctSearches(600, 2026);
    let compared = 0;
    let ranked = 0;
    for (const [index, path] of paths.entries()) {
      for (const query of [queryOfPath(path), enriched(queryOfPath(path), index)]) {
        const expected = await withoutSets.search(query);
        const actual = await withSets.search(query);
        expect(actual, `${path} ${JSON.stringify(query)}`).to.deep.equal(expected);
        if (expected.next) {
          // The page after, by cursor.
          const next = { ...query, after: expected.next };
          expect(await withSets.search(next), `${path}: after ${JSON.stringify(expected.next)}`).to.deep.equal(await withoutSets.search(next));
        }
        compared += 1;
        if (query.order === 'relevance' && expected.ids.length > 1) ranked += 1;
      }
    }
    expect(compared).to.equal(1200);
    expect(ranked).to.be.above(200);
  });

  it('reads ahead the sets of every term held by 1/64 to 1/2 of the rows, at start and then in the background, and answers the same from them', async () => {
    const db = openDatabase(join(dataDir, 'archive.sqlite'));
    try {
      const rows = 3000;
      const dense = db.prepare<[number, number], { term: string }>('SELECT term FROM search_text_vocab WHERE doc >= ? AND doc <= ?').all(rows / 64, rows / 2);
      const facets = dense.filter(({ term }) => FACET_TOKEN.test(term)).length;
      expect(dense.length).to.be.above(100);
      expect(facets).to.be.above(10);
      // Where searches look for each term, then (for words) in a title and the metadata columns.
      const steps = dense.length + (dense.length - facets) * 2;
      const cold = new SqliteSearchIndex(db, 'always');
      expect(cold.warm(0), 'no time to read ahead').to.equal(0);
      expect(cold.readAheadLeft).to.equal(steps);
      expect(cold.readAheadMore(0), 'a slice reads at least one set').to.equal(1);
      await new Promise<void>((resolve) => cold.readAheadInBackground(resolve));
      expect(cold.readAheadLeft).to.equal(0);
      expect(cold.rowSetUse().sets).to.be.at.least(dense.length);

      const warmed = new SqliteSearchIndex(db, 'always');
      expect(warmed.warm(60_000)).to.equal(steps);
      const { paths } = distinctSearches(200, 2027);
      for (const [index, path] of paths.entries()) {
        const query = enriched(queryOfPath(path), index);
        expect(await warmed.search(query), `${path} ${JSON.stringify(query)}`).to.deep.equal(await withoutSets.search(query));
      }
    } finally {
      db.close();
    }
  });

  it('pages a large filtered tier title holders first, by offset and by cursor, as FTS5 counting does', async () => {
    // 1,200 records hold the words in title and notes; the 600 SVGs are the oldest, so a search
    // filtered to SVG finds its title holders only after the other 600 in the title's own order.
    dataDir ||= temporaryDataDir();
    const db = openDatabase(join(dataDir, 'late-holders.sqlite'));
    migrateSchema(db);
    const sets = new SqliteSearchIndex(db, 'always');
    const fts = new SqliteSearchIndex(db, 'never');
    const day = (i: number): string => new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    await sets.upsert(
      Array.from({ length: 1200 }, (_, i) =>
        makeRecord({ format: i < 600 ? 'svg' : 'game', date: day(i), title: { zh: `望远镜 ${i}`, en: `Lighthouse ${i}` }, notes: { zh: '望远镜', en: 'A lighthouse.' } }),
      ),
    );
    // A word, and a Chinese substring that is a phrase of two bigrams.
    for (const [lang, text] of [['en', 'lighthouse'], ['zh', '望远镜']] as const) for (const offset of [0, 37, 580, 599]) {
      const query: SearchQuery = { lang, text, filters: { format: ['svg'] }, order: 'relevance', offset, limit: 20 };
      const expected = await fts.search(query);
      expect(expected.total).to.equal(600);
      expect(await sets.search(query), `${text}, offset ${offset}`).to.deep.equal(expected);
      if (expected.next) expect(await sets.search({ ...query, after: expected.next })).to.deep.equal(await fts.search({ ...query, after: expected.next }));
    }
    db.close();
  });
});

describe('row sets kept current across writes of another connection', function () {
  this.timeout(60_000);
  let dataDir = '';

  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('answer like FTS5 counting after every write: new, re-indexed, re-dated and removed records, and a bulk write', async () => {
    dataDir = temporaryDataDir();
    const path = join(dataDir, 'archive.sqlite');
    const writerDb = openDatabase(path);
    migrateSchema(writerDb);
    const writer = new SqliteSearchIndex(writerDb, 'never');
    const records = [...syntheticCatalog(2700, '2026-11-20')];
    await writer.upsert(records.slice(0, 2000));
    // Readers on connections of their own, as in another process.
    const withSets = new SqliteSearchIndex(openDatabase(path), 'always');
    const withoutSets = new SqliteSearchIndex(openDatabase(path), 'never');
    const { paths } = distinctSearches(400, 11);
    const queries = paths.map(queryOfPath);
    const random = seededRandom(3);
    let fresh = 2000;
    let compared = 0;
    for (let round = 0; round < 40; round += 1) {
      for (const [index, query] of queries.slice(round * 10, round * 10 + 10).entries()) {
        const asked = enriched(query, round * 10 + index);
        expect(await withSets.search(asked), `round ${round}: ${JSON.stringify(asked)}`).to.deep.equal(await withoutSets.search(asked));
        compared += 1;
      }
      const pick = (): CanonicalRecord => records[Math.floor(random() * fresh)] as CanonicalRecord;
      const roll = random();
      if (round === 20) {
        // A bulk write logs "everything changed": readers rebuild rather than follow.
        await writer.upsert(records.slice(2400, 2700));
      } else if (roll < 0.4) {
        await writer.upsert(records.slice(fresh, fresh + 1 + Math.floor(random() * 5)));
        fresh = Math.min(2400, fresh + 6);
      } else if (roll < 0.6) {
        const other = pick();
        await writer.upsert([{ ...pick(), title: other.title, notes: other.notes }]);
      } else if (roll < 0.8) {
        const moved = pick();
        await writer.upsert([{ ...moved, date: `20${10 + Math.floor(random() * 16)}-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 10)}` }]);
      } else {
        await writer.remove([pick().id, pick().id]);
      }
    }
    expect(compared).to.equal(400);
  });

  it('reads the facet columns ahead a chunk at a time, and counts as FTS5 does with rows written between chunks and a count asked midway', async () => {
    dataDir ||= temporaryDataDir();
    const path = join(dataDir, 'facets-ahead.sqlite');
    const writerDb = openDatabase(path);
    migrateSchema(writerDb);
    const writer = new SqliteSearchIndex(writerDb, 'never');
    const records = [...syntheticCatalog(2600, '2026-11-20')];
    await writer.upsert(records.slice(0, 2000));
    const reader = new SqliteSearchIndex(openDatabase(path), 'always', 150);
    const counting = new SqliteSearchIndex(openDatabase(path), 'never');
    reader.warm(0);
    expect(reader.facetColumnsRead()).to.deep.equal([]);
    const all: FacetName[] = ['kind', 'format', 'source', 'year', 'model'];
    const random = seededRandom(8);
    const compare = async (round: number): Promise<void> => {
      for (const query of [
        { lang: 'en', filters: {}, facets: all, order: 'newest', offset: 0, limit: 5 },
        { lang: 'zh', text: 'lantern', filters: { format: ['svg', 'game'] }, facets: all, order: 'relevance', offset: 0, limit: 5 },
      ] satisfies SearchQuery[]) {
        expect(await reader.search(query), `round ${round}: ${JSON.stringify(query)}`).to.deep.equal(await counting.search(query));
      }
    };
    let rounds = 0;
    let fresh = 2000;
    while (reader.readFacetsAhead(0)) {
      rounds += 1;
      // New records (dated among the old ones), one re-dated and re-labelled, one removed: rows
      // the chunks read before or after, which the universe kills and appends between them.
      await writer.upsert(records.slice(fresh, fresh + 3));
      fresh += 3;
      const moved = records[Math.floor(random() * 2000)] as CanonicalRecord;
      await writer.upsert([{ ...moved, date: '2019-0' + (1 + Math.floor(random() * 9)) + '-15', model: 'Moved Model ' + rounds, format: 'game' }]);
      await writer.remove([(records[Math.floor(random() * 2000)] as CanonicalRecord).id]);
      // A search follows the writes into the universe between chunks; the bulk write makes a new universe, read anew.
      if (rounds % 7 === 0) await reader.search({ lang: 'en', text: 'lantern', filters: {}, order: 'newest', offset: 0, limit: 1 });
      if (rounds === 20) await writer.upsert(records.slice(2300, 2600));
      if (rounds === 40) {
        // A count asked before the reading ahead is done reads the rest of its column at once.
        await compare(rounds);
        expect(reader.facetColumnsRead()).to.deep.equal(all);
      }
    }
    // Five columns of 2,000 rows or more, 150 rows a chunk (14 chunks or more each), read again after the bulk write.
    expect(rounds).to.equal(40);
    await compare(rounds);
    expect(reader.facetColumnsRead()).to.deep.equal(all);
  });

  it('finds by prefix a word first written after the reader loaded its vocabulary at start', async () => {
    const { ownDir, path, writer } = ownWriter();
    await writer.upsert([...syntheticCatalog(50, '2026-11-20')]);
    const reader = new SqliteSearchIndex(openDatabase(path), 'auto');
    reader.warm();
    const [record] = [...syntheticCatalog(51, '2026-11-20')].slice(50);
    if (!record) throw new Error('no record');
    await writer.upsert([{ ...record, id: 'svg-fresh-word-00000001', title: { zh: '新词', en: 'A quixotrellis lantern' } }]);
    const found = await reader.search({ lang: 'en', text: 'quixotrel', filters: {}, order: 'relevance', offset: 0, limit: 5 });
    rmSync(ownDir, { recursive: true, force: true });
    expect(found.ids).to.deep.equal(['svg-fresh-word-00000001']);
  });

  it("reads an appended row's texts back from its record, written by the store, and from the copy kept for a record given to the index alone", async () => {
    const db = openDatabase(':memory:');
    migrateSchema(db);
    const [stored, given] = [...syntheticCatalog(2, '2026-11-20')];
    if (!stored || !given) throw new Error('no records');
    await new SqliteRecordStore(db, new SqliteSearchIndex(db, 'never')).putRecords([stored]);
    await new SqliteSearchIndex(db, 'never').upsert([given]);
    const changeLog = new SearchChangeLog(db);
    const caches = new SearchCaches(db, changeLog, new SearchIndexWriter(db, changeLog), 'always');
    const keyOf = db.prepare<[string], number>('SELECT sort_key FROM search_keys WHERE id = ?').pluck();
    try {
      for (const record of [stored, given]) expect(caches.appendedRow(keyOf.get(record.id) ?? 0)?.values, record.id).to.deep.equal(textColumnValues(record));
      expect(db.prepare('SELECT id FROM search_docs').pluck().all()).to.deep.equal([given.id]);
    } finally {
      db.close();
    }
  });

  it('ranks a record whose English title takes up a Chinese phrase after the reader learned which columns hold its bigrams', async () => {
    const { ownDir, path, writer } = ownWriter();
    const [first, second, ...rest] = [...syntheticCatalog(52, '2026-11-20')];
    if (!first || !second) throw new Error('no records');
    await writer.upsert([...rest, { ...first, date: '2025-06-01', title: { zh: '星光灯塔', en: 'A lighthouse' } }]);
    const reader = new SqliteSearchIndex(openDatabase(path), 'always');
    const truth = new SqliteSearchIndex(openDatabase(path), 'never');
    const ask = (text: string): SearchQuery => ({ lang: 'en', text, filters: {}, order: 'relevance', offset: 0, limit: 5 });
    // The reader reads the phrase in the English titles, where none of its bigrams is yet.
    expect(await reader.search(ask('星光灯'))).to.deep.equal(await truth.search(ask('星光灯')));
    await writer.upsert([{ ...second, date: '2012-06-01', title: { zh: '夜', en: '星光灯塔 at night' } }]);
    const found = await reader.search(ask('星光灯塔'));
    const expected = await truth.search(ask('星光灯塔'));
    rmSync(ownDir, { recursive: true, force: true });
    expect(found).to.deep.equal(expected);
    expect(found.ids[0]).to.equal(second.id);
  });
});
