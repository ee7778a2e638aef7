import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { mergeFeed, reconcile, replayFeed, SEARCH_SYNC_CHECKPOINT, startSearchSync, syncOnce } from '../../indexer/search-sync.ts';
import { openBackend } from '../../src/backend.ts';
import type { Backend } from '../../src/backend.ts';
import type { IndexRecord, RecordStore, RecordVersion, SearchIndex } from '../../src/domain/ports.ts';
import type { CanonicalRecord, Lang, StoredRecord } from '../../src/domain/record.ts';
import type { SearchQuery } from '../../src/domain/search-query.ts';
import { createLogger } from '../../src/logger.ts';
import { meiliClient } from '../../src/search/meili/meili-search.ts';
import { PendingSearchIndex } from '../../src/search/meili/pending-index.ts';
import { closedAddress } from '../helpers/meili.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { migrateSchema } from '../../src/store/sqlite/schema.ts';
import type { SqliteDatabase } from '../../src/store/sqlite/database.ts';
import { SqliteSearchIndex } from '../../src/search/sqlite/sqlite-search.ts';
import { makeRecord } from '../helpers/factories.ts';
import { temporaryDataDir } from '../helpers/server.ts';

function stored(id: string, seq: number): StoredRecord {
  return { ...makeRecord({ id, sourceUrl: `https://example.org/${id}` }), seq };
}

describe('search index sync: merging the change feed', () => {
  it('takes every event up to the head when neither list is full, the latest per id winning', () => {
    const batch = mergeFeed([stored('a', 3), stored('b', 7)], [{ id: 'a', seq: 5 }, { id: 'b', seq: 4 }, { id: 'c', seq: 6 }], 10, 8);
    expect(batch.through).to.equal(8);
    expect(batch.upserts.map((record) => record.id)).to.deep.equal(['b']);
    expect(batch.removals).to.have.members(['a', 'c']);
  });

  it('reaches the head even when every change up to it was superseded later', () => {
    expect(mergeFeed([], [], 10, 12)).to.deep.equal({ upserts: [], removals: [], through: 12 });
  });

  it('re-publishes an id removed earlier', () => {
    const batch = mergeFeed([stored('a', 9)], [{ id: 'a', seq: 4 }], 10, 9);
    expect(batch.upserts.map((record) => record.id)).to.deep.equal(['a']);
    expect(batch.removals).to.deep.equal([]);
  });

  it('stops at the last change number of a full list, leaving later events for the next batch', () => {
    const changes = [stored('a', 2), stored('b', 4)];
    const removals = [{ id: 'x', seq: 3 }, { id: 'y', seq: 9 }];
    const batch = mergeFeed(changes, removals, 2, 9);
    expect(batch.through).to.equal(4);
    expect(batch.removals).to.deep.equal(['x']);
    expect(batch.upserts.map((record) => record.id)).to.deep.equal(['a', 'b']);
    const both = mergeFeed([stored('a', 2), stored('b', 8)], [{ id: 'x', seq: 3 }, { id: 'y', seq: 5 }], 2, 9);
    expect(both.through).to.equal(5);
    expect(both.upserts.map((record) => record.id)).to.deep.equal(['a']);
  });

  it('never reaches past the head, whatever the lists hold', () => {
    const batch = mergeFeed([stored('a', 3)], [{ id: 'x', seq: 6 }], 10, 4);
    expect(batch).to.deep.include({ through: 4, removals: [] });
    expect(batch.upserts.map((record) => record.id)).to.deep.equal(['a']);
  });

  it('always moves forward: a full list reaches at least its own last entry', () => {
    const batch = mergeFeed([stored('a', 11)], [], 1, 20);
    expect(batch.through).to.equal(11);
    expect(batch.upserts).to.have.length(1);
  });
});

/** A search index that counts calls and can be told to fail, around a real embedded FTS5 index. */
class CountingIndex implements SearchIndex {
  upserts = 0;
  failNextUpsert = false;
  constructor(private readonly inner: SearchIndex) {}
  async upsert(records: readonly IndexRecord[]): Promise<void> {
    if (this.failNextUpsert) {
      this.failNextUpsert = false;
      throw new Error('index unavailable');
    }
    this.upserts += 1;
    await this.inner.upsert(records);
  }
  remove(ids: readonly string[]): Promise<void> {
    return this.inner.remove(ids);
  }
  streamVersions(lang: Lang, batchSize?: number): AsyncIterable<RecordVersion> {
    return this.inner.streamVersions(lang, batchSize);
  }
  search(query: SearchQuery) {
    return this.inner.search(query);
  }
  count(): Promise<number> {
    return this.inner.count();
  }
  ping(): Promise<void> {
    return this.inner.ping();
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

/**
 * The store, with something run once just after the first read of changed records returns and
 * before the read of removals: a writer committing between the follower's two reads.
 */
function interleaving(store: RecordStore, between: () => Promise<void>): RecordStore {
  let done = false;
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(target);
      if (property !== 'changesSince') return bound;
      return async (...args: unknown[]) => {
        const changes = await bound(...args);
        if (!done) {
          done = true;
          await between();
        }
        return changes;
      };
    },
  });
}

/** Runs something once just before the first upsert reaches the index: a concurrent writer. */
class RacingIndex extends CountingIndex {
  private raced = false;
  constructor(
    inner: SearchIndex,
    private readonly race: () => Promise<void>,
  ) {
    super(inner);
  }
  override async upsert(records: readonly IndexRecord[]): Promise<void> {
    if (!this.raced && records.length > 0) {
      this.raced = true;
      await this.race();
    }
    await super.upsert(records);
  }
}

describe('search index sync over the embedded store, into an FTS5 index in another file', () => {
  let dataDir: string;
  let backend: Backend;
  let targetDb: SqliteDatabase;
  let index: CountingIndex;
  const newest = (limit = 50): SearchQuery => ({ lang: 'en', filters: {}, order: 'newest', offset: 0, limit });

  beforeEach(async () => {
    dataDir = temporaryDataDir();
    backend = await openBackend({ databaseFile: join(dataDir, 'archive.sqlite') }, { migrate: true });
    targetDb = openDatabase(join(dataDir, 'follower.sqlite'));
    migrateSchema(targetDb);
    index = new CountingIndex(new SqliteSearchIndex(targetDb));
  });

  afterEach(async () => {
    await backend.close();
    targetDb.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('copies every record in batches and leaves the checkpoint at the last change', async () => {
    const records = Array.from({ length: 7 }, (_, i) => makeRecord({ sourceUrl: `https://example.org/${i}`, title: { zh: '灯塔', en: `Lighthouse ${i}` } }));
    await backend.store.putRecords(records);
    const report = await syncOnce(backend.store, index, 3);
    expect(report.upserted).to.equal(7);
    expect(index.upserts).to.equal(3);
    expect(await index.count()).to.equal(7);
    expect(await backend.store.readCheckpoint(SEARCH_SYNC_CHECKPOINT)).to.equal((await backend.store.catalogState()).changeNumber);
    expect((await index.search({ lang: 'zh', text: '灯塔', filters: {}, order: 'relevance', offset: 0, limit: 50 })).total).to.equal(7);
    expect(await syncOnce(backend.store, index, 3)).to.deep.include({ upserted: 0, removed: 0 });
  });

  it('follows edits, removals and re-publication, the latest event winning', async () => {
    const [a, b, c] = ['a', 'b', 'c'].map((name) => makeRecord({ sourceUrl: `https://example.org/${name}`, title: { zh: '旧', en: `Old ${name}` } })) as [CanonicalRecord, CanonicalRecord, CanonicalRecord];
    await backend.store.putRecords([a, b, c]);
    await syncOnce(backend.store, index, 2);
    await backend.store.putRecords([{ ...a, title: { zh: '新', en: 'Renamed' } }]);
    await backend.store.deleteRecords([b.id, c.id]);
    await backend.store.putRecords([c]);
    // Batches of two split c's removal (seq 6) from its re-publication (seq 7): applied in order, c ends up indexed.
    const report = await syncOnce(backend.store, index, 2);
    expect(report).to.include({ upserted: 2, removed: 2 });
    expect((await index.search(newest())).ids).to.have.members([a.id, c.id]);
    expect((await index.search({ ...newest(), text: 'renamed', order: 'relevance' })).ids).to.deep.equal([a.id]);
  });

  it('keeps the checkpoint when the index fails, and catches up on the next pass', async () => {
    await backend.store.putRecords([makeRecord({ sourceUrl: 'https://example.org/one' })]);
    index.failNextUpsert = true;
    let failure: unknown;
    await syncOnce(backend.store, index).catch((error: unknown) => (failure = error));
    expect(failure).to.be.instanceOf(Error);
    expect(await backend.store.readCheckpoint(SEARCH_SYNC_CHECKPOINT)).to.equal(0);
    await syncOnce(backend.store, index);
    expect(await index.count()).to.equal(1);
  });

  it('indexes an edit and a removal committed together between its two reads', async () => {
    const work = makeRecord({ sourceUrl: 'https://example.org/work', title: { zh: '旧', en: 'Old title' } });
    const timeline = makeRecord({ sourceUrl: 'https://example.org/work', kind: 'timeline' });
    await backend.store.putRecords([work, timeline]);
    await syncOnce(backend.store, index);
    const other = makeRecord({ sourceUrl: 'https://example.org/other' });
    await backend.store.putRecords([other]);
    // The publisher's write: the work edited and the superseded timeline record removed, in one
    // transaction whose removal carries the higher change number.
    const store = interleaving(backend.store, () => backend.store.replaceRecords([{ ...work, title: { zh: '新', en: 'Renamed' } }], [{ id: timeline.id, movedTo: work.id, reason: 'superseded' }]));
    await syncOnce(store, index);
    expect(await backend.store.readCheckpoint(SEARCH_SYNC_CHECKPOINT)).to.equal((await backend.store.catalogState()).changeNumber);
    expect((await index.search({ ...newest(), text: 'renamed', order: 'relevance' })).ids).to.deep.equal([work.id]);
    expect((await index.search(newest())).ids).to.have.members([work.id, other.id]);
  });

  it('reconciles: in step, then repairs a missing, an extra and a stale document', async () => {
    const [keep, gone] = [makeRecord({ sourceUrl: 'https://example.org/keep' }), makeRecord({ sourceUrl: 'https://example.org/gone' })];
    await backend.store.putRecords([keep, gone]);
    await syncOnce(backend.store, index);
    expect(await reconcile(backend.store, index)).to.deep.equal({ kind: 'in-step', total: 2 });
    await index.remove([keep.id]);
    expect(await reconcile(backend.store, index)).to.deep.equal({ kind: 'repaired', total: 2, missing: 1, stale: 0, extra: 0 });
    expect(await index.count()).to.equal(2);
    await backend.store.deleteRecords([gone.id]);
    await syncOnce(backend.store, index);
    await index.upsert([(await backend.store.getRecord(keep.id)) ?? keep, gone]);
    expect(await reconcile(backend.store, index)).to.deep.equal({ kind: 'repaired', total: 1, missing: 0, stale: 0, extra: 1 });
    expect((await index.search(newest())).ids).to.deep.equal([keep.id]);
    expect(await reconcile(backend.store, index)).to.deep.equal({ kind: 'in-step', total: 1 });
  });

  it('reconciles content, not counts: finds an edit the index never got though the counts agree', async () => {
    const work = makeRecord({ sourceUrl: 'https://example.org/work', title: { zh: '旧', en: 'Old title' } });
    await backend.store.putRecords([work, makeRecord({ sourceUrl: 'https://example.org/second' })]);
    await syncOnce(backend.store, index);
    // What a skipped change leaves behind: the checkpoint past an edit the index never received.
    await backend.store.putRecords([{ ...work, title: { zh: '新', en: 'Renamed' } }]);
    await backend.store.writeCheckpoint(SEARCH_SYNC_CHECKPOINT, (await backend.store.catalogState()).changeNumber);
    expect(await index.count()).to.equal(2);
    expect(await reconcile(backend.store, index)).to.deep.equal({ kind: 'repaired', total: 2, missing: 0, stale: 1, extra: 0 });
    expect((await index.search({ ...newest(), text: 'renamed', order: 'relevance' })).ids).to.deep.equal([work.id]);
  });

  it('prunes the removals every follower has read, one reconcile after its checkpoint passed them', async () => {
    const records = ['a', 'b', 'c'].map((name) => makeRecord({ sourceUrl: `https://example.org/${name}` }));
    await backend.store.putRecords(records);
    await backend.store.deleteRecords([records[0]?.id ?? '']);
    const follower = startSearchSync(backend.store, index, createLogger('silent'), { pollMs: 10, reconcileEveryMs: 0 });
    try {
      const deadline = Date.now() + 5000;
      while ((await backend.store.removalsSince(0, 10)).length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await backend.store.removalsSince(0, 10)).to.deep.equal([]);
      // Another index, whose follower is behind, keeps the removals it has not read.
      await backend.store.writeCheckpoint('second-index', (await backend.store.catalogState()).changeNumber);
      await backend.store.deleteRecords([records[1]?.id ?? '']);
      const kept = (await backend.store.removalsSince(0, 10)).map((removal) => removal.id);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await backend.store.removalsSince(0, 10)).map((removal) => removal.id)).to.deep.equal(kept);
      expect(kept).to.deep.equal([records[1]?.id]);
    } finally {
      await follower.stop();
    }
    expect((await index.search(newest())).ids).to.deep.equal([records[2]?.id]);
  });

  it('does not reconcile while the feed holds unapplied changes', async () => {
    await backend.store.putRecords([makeRecord({ sourceUrl: 'https://example.org/pending' })]);
    expect(await reconcile(backend.store, index)).to.deep.equal({ kind: 'moving' });
    expect(await index.count()).to.equal(0);
  });

  it('replays the feed from a change number without moving the checkpoint', async () => {
    await backend.store.putRecords([makeRecord({ sourceUrl: 'https://example.org/r1' })]);
    const from = (await backend.store.catalogState()).changeNumber;
    await backend.store.putRecords([makeRecord({ sourceUrl: 'https://example.org/r2' })]);
    const report = await replayFeed(backend.store, index, from);
    expect(report.upserted).to.equal(1);
    expect(await index.count()).to.equal(1);
    expect(await backend.store.readCheckpoint(SEARCH_SYNC_CHECKPOINT)).to.equal(0);
  });

  it('corrects an older version written over a newer one by another follower', async () => {
    const record = makeRecord({ sourceUrl: 'https://example.org/raced', title: { zh: '一', en: 'First version' } });
    await backend.store.putRecords([record]);
    const newer = { ...record, title: { zh: '二', en: 'Second version' } };
    // While this follower holds the first version, the record changes and another follower indexes it first.
    const racing = new RacingIndex(index, async () => {
      await backend.store.putRecords([newer]);
      await index.upsert([newer]);
    });
    await syncOnce(backend.store, racing, 500);
    const hits = await index.search({ ...newest(), text: 'second', order: 'relevance' });
    expect(hits.ids).to.deep.equal([record.id]);
  });

  it('runs as a follower until stopped', async () => {
    const follower = startSearchSync(backend.store, index, createLogger('silent'), { pollMs: 10, reconcileEveryMs: 0 });
    const record = makeRecord({ sourceUrl: 'https://example.org/live' });
    await backend.store.putRecords([record]);
    const deadline = Date.now() + 5000;
    while ((await index.count()) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    await follower.stop();
    expect((await index.search(newest())).ids).to.deep.equal([record.id]);
  });
  /** A logger keeping its JSON lines. */
  function capturing(): { logger: ReturnType<typeof createLogger>; lines: { level: string; msg: string; [field: string]: unknown }[] } {
    const lines: { level: string; msg: string; [field: string]: unknown }[] = [];
    return { logger: createLogger('debug', (line) => lines.push(JSON.parse(line) as { level: string; msg: string })), lines };
  }

  it('waits for an index that could not be opened at start with one warning, no error nor stack, and begins when it opens', async () => {
    await backend.store.putRecords([makeRecord({ sourceUrl: 'https://example.org/waiting' })]);
    const { logger, lines } = capturing();
    let attempts = 0;
    // Opens at its third attempt, 20 ms apart: the sync's 10 ms retries would fail several passes meanwhile.
    const pending = new PendingSearchIndex(
      async () => {
        attempts += 1;
        if (attempts < 3) throw new Error('connect ECONNREFUSED 127.0.0.1:1');
        // Inspectable, as the Meilisearch index the pending one stands for is.
        return Object.assign(index, { inspect: async () => ({ restored: [], documents: { zh: await index.count(), en: await index.count() } }) });
      },
      new Error('connect ECONNREFUSED 127.0.0.1:1'),
      { failed: () => {}, opened: () => {} },
      [20],
    );
    const follower = startSearchSync(backend.store, pending, logger, { pollMs: 10, retryDelayMs: 10, reconcileEveryMs: 60_000 });
    const deadline = Date.now() + 5000;
    while ((await index.count()) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    await follower.stop();
    expect(await index.count()).to.equal(1);
    expect(pending.isOpen).to.equal(true);
    expect(lines.filter((line) => line.level === 'error')).to.deep.equal([]);
    expect(lines.filter((line) => line.msg.startsWith('search index sync failed'))).to.deep.equal([]);
    const waits = lines.filter((line) => line.msg.startsWith('search index sync waits for the search index to open'));
    expect(waits.map((line) => line.level)).to.deep.equal(['warn']);
    expect(JSON.stringify(lines)).not.to.include('"stack"');
  });

  it('names the cause of each later failure (ECONNREFUSED), which the client\'s own message does not', async () => {
    await backend.store.putRecords([makeRecord({ sourceUrl: 'https://example.org/refused' })]);
    // A real failure of the client: nothing listens at the address.
    const refused = await meiliClient({ url: await closedAddress() }).index('archive_zh').getSettings().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).to.be.instanceOf(Error);
    const failing = new CountingIndex(index);
    failing.upsert = async () => {
      throw refused;
    };
    const { logger, lines } = capturing();
    const follower = startSearchSync(backend.store, failing, logger, { pollMs: 10, retryDelayMs: 5, reconcileEveryMs: 60_000 });
    const deadline = Date.now() + 5000;
    while (lines.filter((line) => line.msg === 'search index sync failed again').length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    await follower.stop();
    const again = lines.filter((line) => line.msg === 'search index sync failed again');
    expect(again).to.have.length.of.at.least(2);
    for (const line of again) {
      expect(line.reason).to.match(/^Request to .* has failed \(cause: ECONNREFUSED: connect ECONNREFUSED 127\.0\.0\.1:\d+\)$/);
    }
  });
});
