import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { distinctSearches } from '../../scripts/bench/queries.ts';
import { syntheticCatalog } from '../../src/catalog/synthetic.ts';
import { SearchChangeLog } from '../../src/search/sqlite/change-log.ts';
import { ReadAheadCopy } from '../../src/search/sqlite/read-ahead-copy.ts';
import { RowSet } from '../../src/search/sqlite/row-set.ts';
import { SqliteSearchIndex } from '../../src/search/sqlite/sqlite-search.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import type { SqliteDatabase } from '../../src/store/sqlite/database.ts';
import { migratedDatabase, queryOfPath } from '../helpers/search.ts';

const ROWS = 3000;


/** The copy's rows: how many, and the change-log positions they were read at. */
function copied(db: SqliteDatabase): { sets: number; positions: number[] } {
  const positions = db.prepare<[], number>('SELECT DISTINCT at_change FROM search_read_ahead ORDER BY at_change').pluck().all();
  return { sets: db.prepare<[], number>('SELECT count(*) FROM search_read_ahead').pluck().get() ?? 0, positions };
}

/** Reads ahead everything left, one set a slice, as the background reading does. */
function readAll(index: SqliteSearchIndex): void {
  while (index.readAheadLeft > 0) index.readAheadMore(0);
}

describe('the sets read ahead, kept in the database', () => {
  let dataDir: string;
  let path: string;
  let writerDb: SqliteDatabase;
  let writer: SqliteSearchIndex;
  let changeLog: SearchChangeLog;
  const opened: SqliteDatabase[] = [];

  /** An index on a connection of its own, as in another process. */
  function reader(mode: 'always' | 'never' = 'always'): SqliteSearchIndex {
    const db = openDatabase(path);
    opened.push(db);
    return new SqliteSearchIndex(db, mode);
  }

  /** The number of sets a process reads ahead over the catalog as it is. */
  function stepsNow(): number {
    const first = reader();
    first.warm(0);
    return first.readAheadLeft;
  }

  beforeEach(async () => {
    ({ dataDir, path, db: writerDb } = migratedDatabase());
    changeLog = new SearchChangeLog(writerDb);
    writer = new SqliteSearchIndex(writerDb, 'never');
    await writer.upsert([...syntheticCatalog(ROWS, '2026-11-20')]);
  });

  afterEach(() => {
    for (const db of opened.splice(0)) db.close();
    writerDb.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('are copied as they are read, at the change-log position, and a process starting there takes them all instead of reading', async () => {
    const steps = stepsNow();
    expect(steps).to.be.above(100);
    expect(copied(writerDb).sets, 'nothing read yet').to.equal(0);

    const first = reader();
    first.warm(0);
    // In the background, as a server reads: its slices' sets are copied a few at a time, the last ones when it is done.
    await new Promise<void>((resolve) => first.readAheadInBackground(resolve));
    expect(copied(writerDb)).to.deep.equal({ sets: steps, positions: [changeLog.last()] });

    // No time to read: every set it holds came from the copy.
    const next = reader();
    expect(next.warm(0)).to.equal(steps);
    expect(next.readAheadLeft).to.equal(0);
    const counting = reader('never');
    const { paths } = distinctSearches(300, 41);
    for (const asked of paths.map(queryOfPath)) expect(await next.search(asked), JSON.stringify(asked)).to.deep.equal(await counting.search(asked));
  });

  it('are not taken by a process starting after a write, which reads them again and replaces the copy', async () => {
    const first = reader();
    first.warm(0);
    readAll(first);
    const before = changeLog.last();
    // Rows added and a row removed: ordinals of the copy would now name other rows.
    await writer.upsert([...syntheticCatalog(ROWS + 40, '2026-11-20')].slice(ROWS));
    await writer.remove([[...syntheticCatalog(1, '2026-11-20')][0]?.id as string]);
    expect(changeLog.last()).to.be.above(before);

    const next = reader();
    expect(next.warm(0), 'nothing taken from a copy of another position').to.equal(0);
    readAll(next);
    const { positions } = copied(writerDb);
    expect(positions).to.deep.equal([changeLog.last()]);
    const counting = reader('never');
    const { paths } = distinctSearches(200, 43);
    for (const asked of paths.map(queryOfPath)) expect(await next.search(asked), JSON.stringify(asked)).to.deep.equal(await counting.search(asked));
    expect(next.readAheadLeft).to.equal(0);
  });

  it('are neither taken nor added to by a process whose rows followed a write since it started', async () => {
    const steps = stepsNow();
    const running = reader();
    running.warm(0);
    const before = changeLog.last();
    await writer.upsert([...syntheticCatalog(ROWS + 1, '2026-11-20')].slice(ROWS));
    expect(new ReadAheadCopy(writerDb, changeLog).keep(before, [{ key: 'TEXT : "pelican"', set: RowSet.ofMembers(Uint32Array.of(1, 2)) }]), 'sets read before the write').to.equal(false);
    expect(copied(writerDb).sets).to.equal(0);
    // Another process at the new position reads everything and copies it.
    const fresh = reader();
    fresh.warm(0);
    const stepsAfter = fresh.readAheadLeft;
    readAll(fresh);
    expect(copied(writerDb)).to.deep.equal({ sets: stepsAfter, positions: [changeLog.last()] });
    // The running one's rows follow the write by appending one: its ordinals are not the copy's.
    expect(running.readAheadLeft).to.equal(steps);
    expect(running.readAheadMore(0), 'one set read, none taken').to.equal(1);
    readAll(running);
    expect(copied(writerDb)).to.deep.equal({ sets: stepsAfter, positions: [changeLog.last()] });
    // Starting its reading again, at the copy's position, it still takes nothing: its ordinals are its own.
    expect(running.warm(0)).to.equal(0);
  });

  it('are shared by processes starting side by side: each reads its own stripe first and takes the other\'s', () => {
    const steps = stepsNow();
    const one = reader();
    const two = reader();
    expect(one.warm(0, { index: 0, of: 2 })).to.equal(0);
    expect(two.warm(0, { index: 1, of: 2 })).to.equal(0);
    const ownStripe = Math.ceil(steps / 2);
    for (let read = 0; read < ownStripe; read += 1) expect(one.readAheadMore(0)).to.equal(1);
    // The first slice of the second takes the first's whole stripe, none of which it read, and reads one set of its own.
    expect(two.readAheadMore(0)).to.equal(ownStripe + 1);
    expect(two.readAheadLeft).to.equal(steps - ownStripe - 1);
    readAll(two);
    // The first takes the second's stripe instead of reading it.
    expect(one.readAheadMore(0)).to.equal(steps - ownStripe);
    expect(one.readAheadLeft).to.equal(0);
    expect(copied(writerDb).sets).to.equal(steps);
  });

  it('leaves out a copied set whose array does not fit the rows, and reads it from FTS5 instead', async () => {
    const steps = stepsNow();
    const first = reader();
    first.warm(0);
    readAll(first);
    const seqOf = (form: string): number => writerDb.prepare<[string], number>('SELECT seq FROM search_read_ahead WHERE form = ? LIMIT 1').pluck().get(form) as number;
    // A bitset longer than the rows' words, and a list naming a row past the last.
    writerDb.prepare('UPDATE search_read_ahead SET members = ? WHERE seq = ?').run(Buffer.alloc(4 * (Math.ceil(ROWS / 32) + 1)), seqOf('bits'));
    writerDb.prepare('UPDATE search_read_ahead SET count = 1, members = ? WHERE seq = ?').run(Buffer.from(Uint32Array.of(ROWS).buffer), seqOf('list'));
    const next = reader();
    expect(next.warm(0)).to.equal(steps - 2);
    expect(next.readAheadLeft).to.equal(2);
    readAll(next);
    const counting = reader('never');
    const { paths } = distinctSearches(200, 47);
    for (const asked of paths.map(queryOfPath)) expect(await next.search(asked), JSON.stringify(asked)).to.deep.equal(await counting.search(asked));
  });
});
