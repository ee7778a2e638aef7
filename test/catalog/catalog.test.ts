import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openBackend } from '../../src/backend.ts';
import { checkCatalog, CatalogFileError, exportCatalog, importCatalog, readCatalogFile, toCatalogRecord } from '../../src/catalog/catalog-file.ts';
import { syntheticCatalog } from '../../src/catalog/synthetic.ts';
import { BUILT_IN_SOURCE_TABLE, SOURCE_KEYS } from '../../src/domain/sources.ts';
import { FORMATS, KINDS } from '../../src/domain/record.ts';
import type { CanonicalRecord } from '../../src/domain/record.ts';
import { makeRecord } from '../helpers/factories.ts';
import { temporaryDataDir } from '../helpers/server.ts';
import { searchEnvironment } from '../helpers/server-process.ts';

const run = promisify(execFile);

describe('catalog files', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = temporaryDataDir();
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('exports and imports back the same records', async () => {
    const records = [makeRecord({ prompt: '画一只鹈鹕', notes: { zh: '含"引号"与\n换行', en: 'Quotes " and, commas' } }), ...Array.from({ length: 30 }, () => makeRecord())];
    const first = await openBackend({ databaseFile: join(dataDir, 'one.sqlite') }, { migrate: true });
    await importCatalog(first.store, checkCatalog({ version: '1.0', updated: '2026-11-20', records }));
    const file = join(dataDir, 'catalog.json');
    expect(await exportCatalog(first.store, file)).to.equal(31);
    const second = await openBackend({ databaseFile: join(dataDir, 'two.sqlite') }, { migrate: true });
    const catalog = await readCatalogFile(file);
    expect(catalog.total).to.equal(31);
    await importCatalog(second.store, catalog);
    const collect = async (store: typeof first.store) => {
      const all = [];
      for await (const record of store.streamRecords()) all.push(toCatalogRecord(record));
      return all;
    };
    expect(await collect(second.store)).to.deep.equal(await collect(first.store));
    expect(await collect(first.store)).to.deep.equal(records.map((record) => ({ ...record, updated: '2026-11-20' })).sort((a, b) => (a.id < b.id ? -1 : 1)));
    expect((await second.store.catalogState()).updated).to.equal('2026-11-20');
    await first.close();
    await second.close();
  });

  it('names every problem of an invalid catalog and imports nothing', () => {
    const good = makeRecord();
    let error: unknown;
    try {
      checkCatalog({ version: '1.0', updated: '2026-11-20', records: [good, { ...good }, { ...makeRecord(), format: 'png' }, { ...makeRecord(), date: '2025-02-30' }, makeRecord({ source: 'mastodon' }), makeRecord({ source: 'Not A Key' }), 'not a record'] }, BUILT_IN_SOURCE_TABLE.keys);
    } catch (caught) {
      error = caught;
    }
    expect(error).to.be.instanceOf(CatalogFileError);
    const problems = (error as CatalogFileError).problems.join('\n');
    expect(problems).to.include('records[1].id');
    expect(problems).to.include('records[2].format');
    expect(problems).to.include('records[3].date');
    expect(problems).to.include(`records[4].source: mastodon is not a source of this archive (one of: ${BUILT_IN_SOURCE_TABLE.keys.join(', ')}; add it first with npm run sources -- add)`);
    expect(problems).to.include('records[5].source');
    expect((error as CatalogFileError).problems).to.include('records[6]: must be object');
    // A source the target store's table holds is one the catalog may name.
    expect(() => checkCatalog({ version: '1.0', updated: '2026-11-20', records: [makeRecord({ source: 'mastodon' })] }, [...BUILT_IN_SOURCE_TABLE.keys, 'mastodon'])).to.not.throw();
    expect(() => checkCatalog({ version: '2.0', updated: '2026-11-20', records: [] })).to.throw(CatalogFileError, /version/);
  });

  it('imports texts without control, zero-width and direction characters, and refuses a text of nothing else', async () => {
    const hidden = makeRecord({ model: 'ZW\u200b-Model', author: 'A\u202eB', title: { zh: '标\u2066题', en: 'Ti\u0007tle' }, notes: { zh: '注\ufeff', en: 'line\none' }, prompt: 'p\u200drompt', promptCategory: 'cat\u200begory' });
    const [cleaned] = checkCatalog({ version: '1.0', updated: '2026-11-20', records: [hidden] }).records;
    expect(cleaned).to.deep.equal({ ...hidden, model: 'ZW-Model', author: 'AB', title: { zh: '标题', en: 'Title' }, notes: { zh: '注', en: 'line\none' }, prompt: 'prompt', promptCategory: 'category', updated: '2026-11-20' });
    let error: unknown;
    try {
      checkCatalog({ version: '1.0', updated: '2026-11-20', records: [makeRecord({ title: { zh: '\u200b\u200d', en: 'ok' }, model: '\u2066\u2069' })] });
    } catch (caught) {
      error = caught;
    }
    expect((error as CatalogFileError).problems).to.deep.equal(['records[0].model', 'records[0].title.zh'].map((field) => `${field}: must not be blank (it holds only control, zero-width or direction characters)`));
  });

  it('generates a deterministic synthetic catalog covering every format, kind, source and year', () => {
    const records = [...syntheticCatalog(600, '2026-11-22')];
    expect(JSON.stringify([...syntheticCatalog(600, '2026-11-22')])).to.equal(JSON.stringify(records));
    expect(new Set(records.map((record) => record.format))).to.have.all.keys(...FORMATS);
    expect(new Set(records.map((record) => record.kind))).to.have.all.keys(...KINDS);
    expect(new Set(records.map((record) => record.source))).to.have.all.keys(...SOURCE_KEYS);
    expect(new Set(records.map((record) => record.date.slice(0, 4))).size).to.equal(12);
    expect(new Set(records.map((record) => record.id)).size).to.equal(600);
    expect(() => checkCatalog({ version: '1.0', updated: '2026-11-22', records })).to.not.throw();
  });

  it('works from the command line: generate, import, export', async () => {
    const file = join(dataDir, 'synthetic.json');
    const env = { ...process.env, ARCHIVE_DATA_DIR: join(dataDir, 'data'), ...searchEnvironment(join(dataDir, 'data'), {}) };
    const generate = await run(process.execPath, ['--import', 'tsx', 'scripts/catalog.ts', 'generate', '--count', '250', '--out', file], { env });
    expect(generate.stdout).to.match(/wrote 250 synthetic records/);
    // Exporting from a folder without an archive is refused (an import may make one).
    const none = await run(process.execPath, ['--import', 'tsx', 'scripts/catalog.ts', 'export', join(dataDir, 'nothing.json')], { env }).catch((error: { code?: number; stderr?: string }) => error);
    expect(none).to.include({ code: 1 });
    expect((none as { stderr: string }).stderr).to.match(/^no archive database at /);
    expect(existsSync(join(dataDir, 'data', 'archive.sqlite'))).to.equal(false);
    const imported = await run(process.execPath, ['--import', 'tsx', 'scripts/catalog.ts', 'import', file], { env });
    expect(imported.stdout).to.match(/imported 250 records/);
    const out = join(dataDir, 'export.json');
    await run(process.execPath, ['--import', 'tsx', 'scripts/catalog.ts', 'export', out], { env });
    const exported = JSON.parse(readFileSync(out, 'utf8')) as { records: { id: string }[]; total: number; version: string };
    expect(exported.version).to.equal('1.0');
    expect(exported.total).to.equal(250);
    const original = JSON.parse(readFileSync(file, 'utf8')) as { records: { id: string }[] };
    expect(exported.records).to.deep.equal([...original.records].sort((a, b) => (a.id < b.id ? -1 : 1)));
    writeFileSync(join(dataDir, 'broken.json'), '{"version":"1.0"}');
    let failure: { code?: number; stderr?: string } = {};
    await run(process.execPath, ['--import', 'tsx', 'scripts/catalog.ts', 'import', join(dataDir, 'broken.json')], { env }).catch((error: { code?: number; stderr?: string }) => {
      failure = error;
    });
    expect(failure.code).to.equal(1);
    expect(failure.stderr).to.match(/invalid catalog file/);
    // Into a new folder, a refused import leaves no empty archive behind for other commands to take.
    const fresh = join(dataDir, 'refused');
    const refused = await run(process.execPath, ['--import', 'tsx', 'scripts/catalog.ts', 'import', join(dataDir, 'broken.json')], { env: { ...env, ARCHIVE_DATA_DIR: fresh } }).catch((error: { code?: number }) => error);
    expect(refused).to.include({ code: 1 });
    expect(existsSync(join(fresh, 'archive.sqlite'))).to.equal(false);
    expect(existsSync(join(dataDir, 'data', 'archive.sqlite')), 'an archive that was there stays').to.equal(true);
    // A file that is not there is named as such, not with Node's ENOENT, and makes no archive either.
    const missing = await run(process.execPath, ['--import', 'tsx', 'scripts/catalog.ts', 'import', join(dataDir, 'no-such.json')], { env: { ...env, ARCHIVE_DATA_DIR: fresh } }).catch((error: { code?: number; stderr?: string }) => error);
    expect(missing).to.include({ code: 1 });
    expect((missing as { stderr: string }).stderr).to.equal(`no catalog file at ${join(dataDir, 'no-such.json')}: name the file to import (one npm run catalog -- export or generate wrote)\n`);
    expect(existsSync(join(fresh, 'archive.sqlite'))).to.equal(false);
  });

  it('does not bring back, on importing an older export, the ids withdrawn or moved since', async () => {
    const data = join(dataDir, 'data');
    // The embedded store, so this process can move an id in the same archive the commands use.
    const env = { ...process.env, ARCHIVE_DATA_DIR: data, ARCHIVE_STORE: 'embedded', ARCHIVE_SEARCH: 'embedded' };
    const command = (script: string, ...args: string[]) => run(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args], { env });
    const records = Array.from({ length: 6 }, (_, index) => makeRecord({ sourceUrl: `https://github.com/demo-owner/takedown-${index}` }));
    const [taken, gone, stays] = records as [CanonicalRecord, CanonicalRecord, CanonicalRecord];
    const file = join(dataDir, 'catalog.json');
    writeFileSync(file, JSON.stringify({ version: '1.0', updated: '2026-11-20', records }));
    await command('catalog', 'import', file);
    const older = join(dataDir, 'older.json');
    await command('catalog', 'export', older);
    await command('withdraw', taken.id, '--reason', 'The author asked for the work to be taken down.');
    const moving = await openBackend({ databaseFile: join(data, 'archive.sqlite') }, { migrate: false });
    await moving.store.replaceRecords([], [{ id: gone.id, movedTo: stays.id, reason: 'The same work is archived as another record.' }]);
    await moving.close();

    const imported = await command('catalog', 'import', older);
    expect(imported.stdout).to.match(/imported 4 records/);
    expect(imported.stdout).to.include(`skipped 1 withdrawn ids: ${taken.id}\n`);
    expect(imported.stdout).to.include(`skipped 1 moved ids: ${gone.id}\n`);
    const backend = await openBackend({ databaseFile: join(data, 'archive.sqlite') }, { migrate: false });
    try {
      expect(await backend.store.getRecord(taken.id)).to.equal(undefined);
      expect(await backend.store.recordFate(taken.id)).to.include({ status: 'withdrawn', reason: 'The author asked for the work to be taken down.' });
      expect(await backend.store.getRecord(gone.id)).to.equal(undefined);
      expect(await backend.store.recordFate(gone.id)).to.include({ status: 'moved', movedTo: stays.id });
      expect((await backend.store.catalogState()).total).to.equal(4);
    } finally {
      await backend.close();
    }
    // A fresh folder (no fates) takes every record, and says nothing of skipping.
    const fresh = await run(process.execPath, ['--import', 'tsx', 'scripts/catalog.ts', 'import', older], { env: { ...env, ARCHIVE_DATA_DIR: join(dataDir, 'fresh') } });
    expect(fresh.stdout).to.match(/imported 6 records/).and.not.match(/skipped/);
  });
});
