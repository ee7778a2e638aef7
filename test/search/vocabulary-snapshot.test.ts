import { expect } from 'chai';
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import type { SearchQuery } from '../../src/domain/search-query.ts';
import { SearchChangeLog } from '../../src/search/sqlite/change-log.ts';
import { SqliteSearchIndex } from '../../src/search/sqlite/sqlite-search.ts';
import { VocabularySnapshot } from '../../src/search/sqlite/vocabulary-snapshot.ts';
import type { VocabularyRead, VocabularyRow, VocabularyScan } from '../../src/search/sqlite/vocabulary-snapshot.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import type { SqliteDatabase } from '../../src/store/sqlite/database.ts';
import { SqliteRecordStore } from '../../src/store/sqlite/sqlite-store.ts';
import { makeRecord } from '../helpers/factories.ts';
import { migratedDatabase } from '../helpers/search.ts';

const titles = ['Pelican on a bicycle', 'Lighthouse at dusk', 'Pelican lighthouse keeper', 'Bicycle repair shop'];
const records = titles.map((en, i) => makeRecord({ title: { zh: `鹈鹕${i}`, en }, notes: { zh: '笔记', en: 'Notes.' } }));

function sorted(rows: readonly VocabularyRow[]): VocabularyRow[] {
  return [...rows].sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
}

function scanned(db: SqliteDatabase): VocabularyRow[] {
  return db.prepare<[], VocabularyRow>('SELECT term, doc FROM search_text_vocab').all();
}

/** What a read from FTS5 would keep; fails the test when the read came from the copy. */
function scanOf(read: VocabularyRead): VocabularyScan {
  expect(read.scan, 'read from FTS5').to.not.equal(undefined);
  return read.scan as VocabularyScan;
}

function keptAt(db: SqliteDatabase): number | undefined {
  return db.prepare<[], number>('SELECT at_change FROM search_vocabulary').pluck().get();
}

const word = (text: string): SearchQuery => ({ lang: 'en', text, filters: {}, order: 'relevance', offset: 0, limit: 20 });

describe('the vocabulary kept in the database', () => {
  let dataDir: string;
  let path: string;
  let writerDb: SqliteDatabase;
  let changeLog: SearchChangeLog;

  beforeEach(async () => {
    ({ dataDir, path, db: writerDb } = migratedDatabase());
    changeLog = new SearchChangeLog(writerDb);
    const store = new SqliteRecordStore(writerDb, new SqliteSearchIndex(writerDb));
    await store.putRecords(records);
    // A bulk write of the whole catalog settles the index, and so keeps its vocabulary.
    store.finishBulkWrite(records.length);
  });

  afterEach(() => {
    writerDb.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is kept after a bulk write, at the change-log position, and equals what fts5vocab counts', () => {
    expect(keptAt(writerDb)).to.equal(changeLog.last()).and.to.be.above(0);
    const read = new VocabularySnapshot(writerDb, changeLog).read();
    expect(read.scan).to.equal(undefined);
    expect(read.atChange).to.equal(changeLog.last());
    expect(sorted(read.rows)).to.deep.equal(sorted(scanned(writerDb)));
    expect(read.rows.find((row) => row.term === 'pelican')?.doc).to.equal(2);
  });

  it('is what a starting process reads, when nothing changed since', async () => {
    // A term no record holds, written into the copy: only a process that reads the copy knows it.
    const terms = JSON.parse(writerDb.prepare<[], string>('SELECT terms FROM search_vocabulary').pluck().get() as string) as string[];
    const rows = JSON.parse(writerDb.prepare<[], string>('SELECT rows FROM search_vocabulary').pluck().get() as string) as number[];
    writerDb.prepare('UPDATE search_vocabulary SET terms = ?, rows = ?').run(JSON.stringify([...terms, 'zanzibar']), JSON.stringify([...rows, 1]));
    const db = openDatabase(path);
    try {
      const starting = new SqliteSearchIndex(db, 'always');
      starting.warm(0);
      const read = new VocabularySnapshot(db, new SearchChangeLog(db)).read();
      expect(read.scan).to.equal(undefined);
      expect(read.rows.map((row) => row.term)).to.include('zanzibar');
      expect((await starting.search(word('pelican'))).total).to.equal(2);
    } finally {
      db.close();
    }
  });

  it('is not read after a write, so a word the write added is found by a process that starts then', async () => {
    const before = changeLog.last();
    const added = makeRecord({ title: { zh: '灯塔', en: 'Quetzal over the harbour' }, notes: { zh: '笔记', en: 'Notes.' } });
    await new SqliteRecordStore(writerDb, new SqliteSearchIndex(writerDb)).putRecords([added]);
    expect(changeLog.last()).to.be.above(before);
    expect(keptAt(writerDb)).to.equal(before);
    const db = openDatabase(path);
    try {
      const starting = new SqliteSearchIndex(db, 'always');
      starting.warm(0);
      // Read from the old copy, `quetzal` would be a word no row holds, and its search would read nothing.
      expect((await starting.search(word('quetzal'))).ids).to.deep.equal([added.id]);
      // The process read FTS5 and kept what it read for the next one.
      expect(keptAt(writerDb)).to.equal(changeLog.last());
      expect(new VocabularySnapshot(writerDb, changeLog).read().rows.map((row) => row.term)).to.include('quetzal');
    } finally {
      db.close();
    }
  });

  it('is not kept when the search tables changed after it was read, nor from inside a transaction', async () => {
    writerDb.prepare('DELETE FROM search_vocabulary').run();
    const snapshot = new VocabularySnapshot(writerDb, changeLog);
    const read = scanOf(snapshot.read());
    await new SqliteRecordStore(writerDb, new SqliteSearchIndex(writerDb)).putRecords([makeRecord({ title: { zh: '港口', en: 'Harbour' } })]);
    expect(snapshot.keep(read)).to.equal(false);
    expect(keptAt(writerDb)).to.equal(undefined);
    // Nor from inside a transaction, where its write would hold the write lock until that ends.
    const current = scanOf(snapshot.read());
    expect(writerDb.transaction(() => snapshot.keep(current)).deferred()).to.equal(false);
    expect(keptAt(writerDb)).to.equal(undefined);
    expect(snapshot.keep(current)).to.equal(true);
    expect(keptAt(writerDb)).to.equal(changeLog.last());
  });

  it('leaves a start that cannot write to go on reading FTS5', () => {
    writerDb.prepare('DELETE FROM search_vocabulary').run();
    const readOnly = new Database(path, { readonly: true });
    try {
      const starting = new SqliteSearchIndex(readOnly, 'always');
      expect(() => starting.warm(0)).not.to.throw();
      expect(keptAt(writerDb)).to.equal(undefined);
    } finally {
      readOnly.close();
    }
  });
});
