import { expect } from 'chai';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CatalogSyntaxError, scanCatalogFile } from '../../src/catalog/catalog-stream.ts';
import { openBackend } from '../../src/backend.ts';
import { CatalogFileError, importCatalogFile, toCatalogRecord } from '../../src/catalog/catalog-file.ts';
import { syntheticRecord } from '../../src/catalog/synthetic.ts';
import type { CanonicalRecord } from '../../src/domain/record.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { SEARCH_TABLE } from '../../src/store/sqlite/schema.ts';
import { makeRecord } from '../helpers/factories.ts';
import { temporaryDataDir } from '../helpers/server.ts';

describe('catalog files, streamed', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = temporaryDataDir();
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const awkward = [
    makeRecord({ title: { zh: '带"引号"与\\反斜杠的鹈鹕', en: 'Quote " backslash \\ brace } bracket ] comma ,' }, notes: { zh: '换行\n与制表\t', en: 'Unicode \u2028 and \ud83d\udc26 and é' } }),
    makeRecord({ prompt: '{"nested": [1, 2, {"x": "]"}]}' }),
    makeRecord(),
  ];

  async function scan(text: string, chunkBytes?: number): Promise<{ records: unknown[]; fields: Record<string, unknown>; count: number }> {
    const file = join(dataDir, 'catalog.json');
    writeFileSync(file, text);
    const records: unknown[] = [];
    const envelope = await scanCatalogFile(file, (record, index) => {
      expect(index).to.equal(records.length);
      records.push(record);
    }, chunkBytes);
    return { records, fields: envelope.fields, count: envelope.records };
  }

  for (const [layout, text] of [
    ['one line', JSON.stringify({ version: '1.0', updated: '2026-11-20', total: 3, records: awkward })],
    ['pretty-printed', JSON.stringify({ version: '1.0', updated: '2026-11-20', total: 3, records: awkward }, null, 2)],
    ['fields after the records', JSON.stringify({ records: awkward, total: 3, updated: '2026-11-20', version: '1.0' }, null, '\t')],
  ] as const) {
    for (const chunkBytes of [1, 7, 1 << 20]) {
      it(`reads every record and field of a ${layout} file in ${chunkBytes}-byte chunks`, async () => {
        const { records, fields, count } = await scan(text, chunkBytes);
        expect(records).to.deep.equal(awkward);
        expect(count).to.equal(3);
        expect(fields).to.deep.equal({ version: '1.0', updated: '2026-11-20', total: 3 });
      });
    }
  }

  it('refuses what is not one JSON object, with the place it went wrong', async () => {
    for (const text of ['[]', '{"version":"1.0"', '{"version":"1.0"} extra', '{"records":[{"id":1},{"id":]}', '{"version" "1.0"}']) {
      let error: unknown;
      await scan(text, 3).catch((caught: unknown) => {
        error = caught;
      });
      expect(error, text).to.be.instanceOf(CatalogSyntaxError);
    }
  });

  it('imports a file in two passes: nothing written when any record is invalid, every record when all are valid', async () => {
    const backend = await openBackend({ databaseFile: join(dataDir, 'archive.sqlite') }, { migrate: true });
    try {
      const file = join(dataDir, 'import.json');
      const good = Array.from({ length: 12 }, () => makeRecord());
      writeFileSync(file, JSON.stringify({ version: '1.0', updated: '2026-11-21', records: [...good.slice(0, 6), { ...makeRecord(), format: 'png' }, ...good.slice(6), good[0]] }));
      let error: unknown;
      await importCatalogFile(backend.store, file, { batchSize: 5 }).catch((caught: unknown) => {
        error = caught;
      });
      expect(error).to.be.instanceOf(CatalogFileError);
      expect((error as CatalogFileError).problems.join('\n')).to.match(/records\[6\]\.format/).and.match(/records\[13\]\.id/);
      expect((await backend.store.catalogState()).total).to.equal(0);

      writeFileSync(file, JSON.stringify({ records: good, updated: '2026-11-21', version: '1.0' }, null, 1));
      expect((await importCatalogFile(backend.store, file, { batchSize: 5 })).written).to.equal(12);
      const stored = [];
      for await (const record of backend.store.streamRecords()) stored.push(toCatalogRecord(record));
      expect(stored).to.deep.equal(good.map((record) => ({ ...record, updated: '2026-11-21' })).sort((a, b) => (a.id < b.id ? -1 : 1)));
      expect((await backend.store.catalogState()).updated).to.equal('2026-11-21');
      expect((await backend.search.search({ lang: 'en', filters: {}, order: 'newest', offset: 0, limit: 50 })).total).to.equal(12);

      // The worker prepares records with the date it reads before them while the file is checked; the check reads a name given twice as its last value.
      writeFileSync(file, `{"version":"1.0","updated":"2026-11-22","records":${JSON.stringify(good.slice(0, 3))},"updated":"2026-11-23"}`);
      await importCatalogFile(backend.store, file, { batchSize: 5 }).catch((caught: unknown) => {
        error = caught;
      });
      expect((error as CatalogFileError).problems).to.deep.equal(['updated: the file gives two compilation dates, 2026-11-22 and 2026-11-23']);
      expect((await backend.store.catalogState()).updated).to.equal('2026-11-21');

      writeFileSync(file, '{"version":"1.0","updated":"2026-11-21","records":[{"id":');
      await importCatalogFile(backend.store, file).catch((caught: unknown) => {
        error = caught;
      });
      expect((error as CatalogFileError).problems[0]).to.match(/^not a catalog file/);
    } finally {
      await backend.close();
    }
  });

  it('stores the texts of an imported file without control, zero-width and direction characters, found by their model', async () => {
    const backend = await openBackend({ databaseFile: join(dataDir, 'archive.sqlite') }, { migrate: true });
    try {
      const file = join(dataDir, 'import.json');
      const hidden = makeRecord({ model: 'ZW\u200b-Model', title: { zh: '标\u2066题\u2069', en: 'Ti\u0007tle' }, prompt: 'p\u200drompt' });
      writeFileSync(file, JSON.stringify({ version: '1.0', updated: '2026-11-21', records: [hidden, makeRecord()] }));
      expect((await importCatalogFile(backend.store, file, { batchSize: 1 })).written).to.equal(2);
      const stored = await backend.store.findByModel('ZW-Model');
      expect(stored.map((record) => [record.id, record.model, record.title, record.prompt])).to.deep.equal([[hidden.id, 'ZW-Model', { zh: '标题', en: 'Title' }, 'prompt']]);
    } finally {
      await backend.close();
    }
  });

  /**
   * The number of segments of the search table, from FTS5's structure record (row 10 of its data
   * table, laid out as fts5_index.c describes: a 4-byte cookie, the 4-byte mark of version 2 when
   * present, then varints: levels, segments).
   */
  function searchSegments(databaseFile: string): number {
    const db = openDatabase(databaseFile);
    try {
      const block = db.prepare<[], Buffer>(`SELECT block FROM ${SEARCH_TABLE}_data WHERE id = 10`).pluck().get();
      if (!block) throw new Error('no structure record');
      let at = block.subarray(4, 8).equals(Buffer.from([0xff, 0, 0, 1])) ? 8 : 4;
      const varint = (): number => {
        let value = 0;
        for (;;) {
          const byte = block[at++] as number;
          value = value * 128 + (byte & 0x7f);
          if (byte < 0x80) return value;
        }
      };
      varint();
      return varint();
    } finally {
      db.close();
    }
  }

  it("dates the records by the file into a new archive, and no earlier than the day of the import into one compiled before, so that a sync by since finds them", async () => {
    const backend = await openBackend({ databaseFile: join(dataDir, 'archive.sqlite') }, { migrate: true });
    const file = (updated: string, records: readonly CanonicalRecord[], name: string): string => {
      const path = join(dataDir, name);
      // The date after the records too: the worker then takes it from the writer, not the file.
      writeFileSync(path, name.includes('after') ? JSON.stringify({ version: '1.0', records, updated }) : JSON.stringify({ version: '1.0', updated, records }));
      return path;
    };
    const [kept, edited, added, later] = [makeRecord(), makeRecord(), makeRecord(), makeRecord()];
    const dated = async (id: string): Promise<string | undefined> => (await backend.store.getRecord(id))?.updated;
    try {
      const first = await importCatalogFile(backend.store, file('2026-11-20', [kept, edited], 'first.json'), { now: new Date('2026-11-22T10:00:00Z') });
      expect(first.updated, 'a new archive keeps the file\'s date').to.equal('2026-11-20');
      expect([await dated(kept.id), (await backend.store.catalogState()).updated]).to.deep.equal(['2026-11-20', '2026-11-20']);
      const before = (await backend.store.catalogState()).changeNumber;
      for (const name of ['second.json', 'second-date-after.json']) {
        const second = await importCatalogFile(backend.store, file('2026-11-20', [{ ...edited, title: { ...edited.title, en: 'Edited' } }, added], name), { now: new Date('2026-11-26T23:59:00Z') });
        expect(second.updated, name).to.equal('2026-11-26');
        expect([await dated(edited.id), await dated(added.id), await dated(kept.id)], name).to.deep.equal(['2026-11-26', '2026-11-26', '2026-11-20']);
      }
      expect(await backend.store.catalogState()).to.deep.include({ updated: '2026-11-26' }).and.have.property('changeNumber').above(before);
      const since = await backend.search.search({ lang: 'en', filters: { since: '2026-11-26' }, order: 'newest', offset: 0, limit: 10 });
      expect([...since.ids].sort()).to.deep.equal([edited.id, added.id].sort());
      // A file dated after the day of the import keeps its date.
      expect((await importCatalogFile(backend.store, file('2026-12-01', [later], 'later.json'), { now: new Date('2026-11-26T12:00:00Z') })).updated).to.equal('2026-12-01');
      expect(await dated(later.id)).to.equal('2026-12-01');
    } finally {
      await backend.close();
    }
  });

  it('merges the search table into one segment after an import that wrote much of the catalog, not after a small one', async () => {
    const databaseFile = join(dataDir, 'archive.sqlite');
    const backend = await openBackend({ databaseFile }, { migrate: true });
    const catalogFile = (records: readonly CanonicalRecord[]): string => {
      const file = join(dataDir, 'import.json');
      writeFileSync(file, JSON.stringify({ version: '1.0', updated: '2026-11-21', records }));
      return file;
    };
    const pelicans = (records: readonly CanonicalRecord[]): number => records.filter((record) => /\bpelican\b/.test(`${record.title.en} ${record.notes.en} ${record.prompt ?? ''} ${record.promptCategory}`)).length;
    try {
      const first = Array.from({ length: 3000 }, (_, i) => syntheticRecord(i, '2026-11-21'));
      // Batches of 300 are ten transactions, each writing segments of its own.
      expect((await importCatalogFile(backend.store, catalogFile(first), { batchSize: 300 })).written).to.equal(3000);
      expect(searchSegments(databaseFile)).to.equal(1);
      const search = async (text: string): Promise<number> => (await backend.search.search({ lang: 'en', text, filters: {}, order: 'relevance', offset: 0, limit: 10 })).total;
      expect(await search('"pelican"')).to.equal(pelicans(first)).and.be.above(0);

      // 400 records into 3,400: under a quarter, so FTS5's own merging is left to it.
      const second = Array.from({ length: 400 }, (_, i) => syntheticRecord(3000 + i, '2026-11-21'));
      await importCatalogFile(backend.store, catalogFile(second), { batchSize: 100 });
      expect(searchSegments(databaseFile)).to.be.above(1);
      expect(await search('"pelican"')).to.equal(pelicans([...first, ...second]));
    } finally {
      await backend.close();
    }
  });
});
