import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openBackend } from '../../src/backend.ts';
import type { Backend } from '../../src/backend.ts';
import { syntheticCatalog } from '../../src/catalog/synthetic.ts';
import { PresentedRecords } from '../../src/domain/presented-records.ts';
import { listJson, listSpecimens, listSpecimensJson } from '../../src/domain/specimens.ts';
import type { SearchParams } from '../../src/domain/specimens.ts';
import { BUILT_IN_SOURCE_TABLE } from '../../src/domain/sources.ts';
import { parseSearchParams } from '../../src/validation/read-params.ts';
import { distinctSearches } from '../../scripts/bench/queries.ts';
import { temporaryDataDir } from '../helpers/server.ts';

const BASE = 'https://archive.test';

function paramsOf(path: string): SearchParams {
  const raw = Object.fromEntries(new URL(path, BASE).searchParams);
  return parseSearchParams(raw, 'specimens', { fromQueryString: true, exportsHint: '', sourceKeys: BUILT_IN_SOURCE_TABLE.keys });
}

describe('presented records', () => {
  let dataDir: string;
  let reader: Backend;
  let writer: Backend;
  before(async () => {
    dataDir = temporaryDataDir();
    const file = join(dataDir, 'archive.sqlite');
    writer = await openBackend({ databaseFile: file }, { migrate: true });
    await writer.store.putRecords([...syntheticCatalog(1500, '2026-11-22')]);
    // The reader is another connection, as an HTTP worker is another process.
    reader = await openBackend({ databaseFile: file }, { migrate: false });
  });
  after(async () => {
    await reader.close();
    await writer.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers every list with exactly the JSON of the presented list, from the store or from memory', async () => {
    const presented = new PresentedRecords(reader.store, BASE, 1024 * 1024);
    const plain = { store: reader.store, search: reader.search, baseUrl: BASE };
    const { changeNumber } = await reader.store.catalogState();
    const { paths } = distinctSearches(300, 41);
    // Some count facets too, and with a next-page cursor the answer carries every field there is.
    const withFacets = paths.map((path, i) => (i % 3 === 0 ? `${path}&facets=format,model` : path));
    // Twice over: the second round is answered from memory.
    for (const path of [...withFacets, ...withFacets]) {
      const params = paramsOf(path);
      const expected = await listSpecimens(plain, params, 'specimens');
      expect(listJson(await listSpecimensJson({ ...plain, presented }, params, 'specimens', changeNumber)).equals(Buffer.from(JSON.stringify(expected))), path).to.equal(true);
      // The objects (MCP tools, pages) come from the same kept JSON.
      expect(await listSpecimens({ ...plain, presented }, params, 'specimens'), path).to.deep.equal(expected);
    }
    expect(presented.size).to.be.above(0).and.at.most(1024 * 1024);
  });

  it('reads the cursor of the next page from the answer, as the route links it', async () => {
    const presented = new PresentedRecords(reader.store, BASE, 1024 * 1024);
    const { changeNumber } = await reader.store.catalogState();
    const first = await listSpecimensJson({ store: reader.store, search: reader.search, baseUrl: BASE, presented }, paramsOf('/api/v1/specimens?q=pelican&lang=en&limit=3'), 'specimens', changeNumber);
    expect(first.next).to.be.a('string');
    expect(JSON.parse(listJson(first).toString()).next).to.equal(first.next);
  });

  it('never answers with a record another process changed or removed since it was kept', async () => {
    const presented = new PresentedRecords(reader.store, BASE, 1024 * 1024);
    const context = { store: reader.store, search: reader.search, baseUrl: BASE, presented };
    const newest = paramsOf('/api/v1/specimens?lang=en&limit=5');
    const before = JSON.parse(listJson(await listSpecimensJson(context, newest, 'specimens', (await reader.store.catalogState()).changeNumber)).toString()) as { items: { id: string; title: string }[] };
    const [first, second] = before.items;
    const stored = await writer.store.getRecord(first?.id ?? '');
    if (!stored || !second) throw new Error('no records');
    await writer.store.putRecords([{ ...stored, title: { ...stored.title, en: 'Retitled by another process' } }]);
    await writer.store.deleteRecords([second.id]);
    const after = JSON.parse(listJson(await listSpecimensJson(context, newest, 'specimens', (await reader.store.catalogState()).changeNumber)).toString()) as { items: { id: string; title: string }[] };
    expect(after.items[0]).to.include({ id: first?.id, title: 'Retitled by another process' });
    expect(after.items.map((item) => item.id)).to.not.include(second.id);
  });

  it('keeps no more than its bound, dropping the least recently used', async () => {
    const presented = new PresentedRecords(reader.store, BASE, 20_000);
    const context = { store: reader.store, search: reader.search, baseUrl: BASE, presented };
    const { changeNumber } = await reader.store.catalogState();
    for (const offset of [0, 50, 100, 150]) await listSpecimensJson(context, paramsOf(`/api/v1/specimens?lang=zh&limit=50&offset=${offset}`), 'specimens', changeNumber);
    expect(presented.size).to.be.above(10_000).and.at.most(20_000);
  });
});
