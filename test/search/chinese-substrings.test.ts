import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CanonicalRecord } from '../../src/domain/record.ts';
import type { SearchQuery } from '../../src/domain/search-query.ts';
import { seededRandom } from '../../src/random.ts';
import { normalizeText, runWords } from '../../src/search/search-text.ts';
import { SqliteSearchIndex } from '../../src/search/sqlite/sqlite-search.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { migrateSchema } from '../../src/store/sqlite/schema.ts';
import { makeRecord } from '../helpers/factories.ts';
import { temporaryDataDir } from '../helpers/server.ts';

/** Five characters only, so that runs repeat each other's substrings and meet across punctuation. */
const ALPHABET = [...'甲乙丙丁戊'];
/** What may stand between two runs of one text: punctuation, a space, a Latin word. */
const BETWEEN = ['，', ' ', '。', ' x ', '、'];

/** Every text the index searches, as the record gives it. */
function textsOf(record: CanonicalRecord): string[] {
  return [record.title.zh, record.title.en, record.notes.zh, record.notes.en, record.model, record.author, record.prompt ?? '', record.promptCategory];
}

/** The truth, from the records themselves: a string of CJK characters is found where some text holds it. */
function holders(records: readonly CanonicalRecord[], substring: string, texts: (record: CanonicalRecord) => string[] = textsOf): Set<string> {
  return new Set(records.filter((record) => texts(record).some((text) => normalizeText(text).includes(substring))).map((record) => record.id));
}

/**
 * The truth of an unquoted search: the holders of the string as written, and (in the typo tier)
 * the records holding each of its words (runWords), each in some text.
 */
function found(records: readonly CanonicalRecord[], substring: string): Set<string> {
  const words = runWords(substring) ?? [];
  const apart = words.length ? records.filter((record) => words.every((word) => textsOf(record).some((text) => normalizeText(text).includes(word)))) : [];
  return new Set([...holders(records, substring), ...apart.map((record) => record.id)]);
}

/** Every string of the alphabet of a length. */
function strings(length: number): string[] {
  if (length === 0) return [''];
  return strings(length - 1).flatMap((head) => ALPHABET.map((character) => head + character));
}

describe('Chinese substrings in the embedded index (trigram blocks)', () => {
  const random = seededRandom(20261125);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const run = (): string => Array.from({ length: 1 + Math.floor(random() * 6) }, () => pick(ALPHABET)).join('');
  const runs = (count: number): string => Array.from({ length: count }, run).reduce((text, next) => `${text}${pick(BETWEEN)}${next}`);
  const records = Array.from({ length: 240 }, (_, i) =>
    makeRecord({
      date: `2025-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
      title: { zh: runs(1 + Math.floor(random() * 2)), en: i % 5 === 0 ? `Lantern ${run()}` : `Lantern ${i}` },
      notes: { zh: runs(2 + Math.floor(random() * 2)), en: 'Notes.' },
    }),
  );
  let dataDir: string;
  let withSets: SqliteSearchIndex;
  let withFts: SqliteSearchIndex;

  before(async () => {
    dataDir = temporaryDataDir();
    const path = join(dataDir, 'archive.sqlite');
    const writerDb = openDatabase(path);
    migrateSchema(writerDb);
    await new SqliteSearchIndex(writerDb, 'never').upsert(records);
    withSets = new SqliteSearchIndex(openDatabase(path), 'always');
    withFts = new SqliteSearchIndex(openDatabase(path), 'never');
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  const ask = (text: string, order: SearchQuery['order']): SearchQuery => ({ lang: 'zh', text, filters: {}, order, offset: 0, limit: records.length });

  it('finds exactly the records holding each string of one to five characters, or its words apart, counting with row sets and with FTS5', async () => {
    const asked = [...strings(1), ...strings(2), ...strings(3), ...strings(4), ...strings(5).filter(() => random() < 0.1)];
    let held = 0;
    let apart = 0;
    for (const text of asked) {
      const expected = found(records, text);
      for (const index of [withSets, withFts]) {
        const hits = await index.search(ask(text, 'newest'));
        expect(new Set(hits.ids), text).to.deep.equal(expected);
        expect(hits.total, text).to.equal(expected.size);
        // Quoted, the string is matched as written alone.
        const quoted = await index.search(ask(`"${text}"`, 'newest'));
        expect(new Set(quoted.ids), `"${text}"`).to.deep.equal(holders(records, text));
      }
      if (holders(records, text).size > 0) held += 1;
      if (expected.size > holders(records, text).size) apart += 1;
    }
    // Most strings are held by some record, and some by none; some find records only through their words: every answer is tested.
    expect(held, `strings held of ${asked.length}`).to.be.within(400, asked.length - 50);
    expect(apart, `strings found apart of ${asked.length}`).to.be.above(20);
  });

  it('ranks the records holding the string in the Chinese title first, then the other holders, then those holding its words apart', async () => {
    for (const text of [...strings(3), ...strings(4)].filter(() => random() < 0.25)) {
      const inTitle = holders(records, text, (record) => [record.title.zh]);
      const asWritten = holders(records, text);
      for (const index of [withSets, withFts]) {
        const { ids } = await index.search(ask(text, 'relevance'));
        expect(new Set(ids.slice(0, inTitle.size)), text).to.deep.equal(inTitle);
        expect(new Set(ids.slice(0, asWritten.size)), text).to.deep.equal(asWritten);
        expect(new Set(ids), text).to.deep.equal(found(records, text));
      }
    }
  });

  it('keeps a substring whose trigrams end one run and begin the next from matching across them', async () => {
    const record = makeRecord({ title: { zh: '己庚辛，庚辛壬', en: 'Two runs' }, notes: { zh: '无', en: 'None.' } });
    const path = join(dataDir, 'archive.sqlite');
    const writer = new SqliteSearchIndex(openDatabase(path), 'never');
    await writer.upsert([record]);
    for (const index of [withSets, withFts]) {
      expect((await index.search(ask('己庚辛壬', 'newest'))).total).to.equal(0);
      expect((await index.search(ask('"己庚辛壬"', 'newest'))).total).to.equal(0);
      expect((await index.search(ask('庚辛壬', 'newest'))).ids).to.deep.equal([record.id]);
      expect((await index.search(ask('己庚辛', 'relevance'))).ids).to.deep.equal([record.id]);
    }
    await writer.remove([record.id]);
  });
});
