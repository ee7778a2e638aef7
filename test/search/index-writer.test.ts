import { expect } from 'chai';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import type { SqliteDatabase } from '../../src/store/sqlite/database.ts';
import { migrateSchema } from '../../src/store/sqlite/schema.ts';
import { SearchChangeLog } from '../../src/search/sqlite/change-log.ts';
import { SearchIndexWriter } from '../../src/search/sqlite/index-writer.ts';
import { dayBase, dayNumber, SLOTS_PER_DAY } from '../../src/search/sqlite/sort-key.ts';
import type { CanonicalRecord } from '../../src/domain/record.ts';
import { makeRecord } from '../helpers/factories.ts';
import { SqliteRecordStore } from '../../src/store/sqlite/sqlite-store.ts';
import { SqliteSearchIndex } from '../../src/search/sqlite/sqlite-search.ts';

function openWriter(): { db: SqliteDatabase; writer: SearchIndexWriter } {
  const db = openDatabase(':memory:');
  migrateSchema(db);
  return { db, writer: new SearchIndexWriter(db, new SearchChangeLog(db)) };
}

function keys(db: SqliteDatabase): { sort_key: number; id: string; day: number }[] {
  return db.prepare<[], { sort_key: number; id: string; day: number }>('SELECT sort_key, id, day FROM search_keys ORDER BY sort_key').all();
}

function write(db: SqliteDatabase, writer: SearchIndexWriter, records: readonly CanonicalRecord[]): void {
  db.transaction(() => writer.upsert(records)).immediate();
}

describe('embedded search index writer', () => {
  // Ids that each fall between 'm' and the one before, so a day's gap halves with every one of them and runs out.
  const squeezed = Array.from({ length: 40 }, (_, i) => `m${'0'.repeat(39 - i)}1`);
  const days = ['2024-03-01', '2024-03-02', '2025-07-09'];
  const first = [...days.flatMap((date) => ['a', 'm', 'z', 'k'].map((id) => makeRecord({ id: `${id}-${date}`, date }))), ...['a', 'm', 'z'].map((id) => makeRecord({ id, date: '2024-03-01' }))];
  const second = [
    ...squeezed.map((id) => makeRecord({ id, date: '2024-03-01' })),
    makeRecord({ id: 'k-2024-03-02', date: '2024-03-01' }),
    makeRecord({ id: 'a-2025-07-09', date: '2025-07-09', model: 'Claude 3' }),
    makeRecord({ id: 'b-2024-03-02', date: '2024-03-02' }),
    makeRecord({ id: 'a', date: '2025-07-09' }),
    makeRecord({ id: 'y-2025-07-09', date: '2025-07-09' }),
  ];

  it('gives a write of many records the keys it gives them written one at a time', () => {
    const batched = openWriter();
    const single = openWriter();
    try {
      write(batched.db, batched.writer, first);
      write(batched.db, batched.writer, second);
      // A write takes its records in key order (date descending, then id).
      const inKeyOrder = (records: CanonicalRecord[]): CanonicalRecord[] => [...records].sort((a, b) => (a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date > b.date ? -1 : 1));
      for (const record of [...inKeyOrder(first), ...inKeyOrder(second)]) write(single.db, single.writer, [record]);
      expect(keys(batched.db)).to.deep.equal(keys(single.db));
    } finally {
      batched.db.close();
      single.db.close();
    }
  });

  it('keeps each day in id order within its range, renumbering a day whose gap ran out', () => {
    const { db, writer } = openWriter();
    try {
      write(db, writer, first);
      write(db, writer, second);
      const rows = keys(db);
      const live = new Map([...first, ...second].map((record) => [record.id, record]));
      expect(rows.map((row) => row.id).sort()).to.deep.equal([...live.keys()].sort());
      for (const row of rows) {
        const day = dayNumber(live.get(row.id)?.date ?? '');
        expect(row.day, row.id).to.equal(day);
        expect(row.sort_key, row.id).to.be.within(dayBase(day), dayBase(day) + SLOTS_PER_DAY - 1);
      }
      for (let i = 1; i < rows.length; i += 1) {
        const [before, after] = [rows[i - 1], rows[i]];
        if (before?.day === after?.day) expect((before?.id ?? '') < (after?.id ?? ''), `${before?.id} before ${after?.id}`).to.equal(true);
      }
      // The squeezed ids used up the gap below 'm': the change log says "anything may have changed".
      expect(db.prepare('SELECT count(*) FROM search_changes WHERE sort_key IS NULL').pluck().get()).to.be.above(0);
    } finally {
      db.close();
    }
  });

  it('indexes each row of a renumbered day again from its record, which the search table keeps no copy of', () => {
    const db = openDatabase(':memory:');
    migrateSchema(db);
    const store = new SqliteRecordStore(db, new SqliteSearchIndex(db, 'never'));
    try {
      store.putRecordsNow(first);
      store.putRecordsNow(second);
      expect(db.prepare('SELECT count(*) FROM search_changes WHERE sort_key IS NULL').pluck().get(), 'a day was renumbered').to.be.above(0);
      expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'search_text_content'").pluck().get()).to.equal(0);
      const keyOf = db.prepare<[string], number>('SELECT sort_key FROM search_keys WHERE id = ?').pluck();
      const found = db.prepare<[string], number>('SELECT rowid FROM search_text WHERE search_text MATCH ?').pluck();
      const live = new Map([...first, ...second].map((record) => [record.id, record]));
      for (const record of live.values()) {
        // Every factory title ends with a number of its own: the row holds it under the record's key now, and nowhere else.
        expect(found.all(`title_en: "${record.title.en.toLowerCase()}"`), record.id).to.deep.equal([keyOf.get(record.id)]);
      }
    } finally {
      db.close();
    }
  });
});
