import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { SearchQuery } from '../../src/domain/search-query.ts';
import { parseSearchText } from '../../src/search/search-text.ts';
import type { QueryTerm } from '../../src/search/search-text.ts';
import { SINGLE_CHARACTER_PREFIXES } from '../../src/search/sqlite/query-plan.ts';
import { SqliteSearchIndex } from '../../src/search/sqlite/sqlite-search.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { migrateSchema } from '../../src/store/sqlite/schema.ts';
import { makeRecord } from '../helpers/factories.ts';
import { temporaryDataDir } from '../helpers/server.ts';

const prefixes = (terms: readonly QueryTerm[]): boolean[] => terms.map((term) => term.type === 'phrase' && term.prefixLast);

describe('single Chinese characters as prefixes (the embedded engine reads at most four)', () => {
  it('keeps the last characters of the text as prefixes, excluded and quoted ones counted, and every one by default', () => {
    const text = '甲 -乙 丙 "丁" 戊 己';
    expect(prefixes(parseSearchText(text).groups.flatMap((group) => group.alternatives.flat()))).to.deep.equal([true, true, true, true, true]);
    const bounded = parseSearchText(text, { singleCharacterPrefixes: 4 });
    expect(prefixes(bounded.groups.flatMap((group) => group.alternatives.flat()))).to.deep.equal([false, true, true, true, true]);
    expect(prefixes(bounded.excluded)).to.deep.equal([false]);
    // Runs of two characters or more and Latin words are not counted.
    expect(prefixes(parseSearchText('甲 乙 鹈鹕 丙 丁 pelican', { singleCharacterPrefixes: 2 }).groups.flatMap((group) => group.alternatives.flat()))).to.deep.equal([false, false, false, true, true, false]);
  });

  describe('in the index', () => {
    // Every character of 甲乙丙丁戊 stands inside the run, none alone or at its end (己 ends it).
    const inside = makeRecord({ date: '2025-01-01', title: { zh: '甲乙丙丁戊己', en: 'Inside' }, notes: { zh: '无', en: 'None.' } });
    // 甲 ends a run here, and the others stand inside one.
    const ending = makeRecord({ date: '2025-01-02', title: { zh: '乙丙丁戊己，庚甲', en: 'Ending' }, notes: { zh: '无', en: 'None.' } });
    let dataDir: string;
    let index: SqliteSearchIndex;
    before(async () => {
      dataDir = temporaryDataDir();
      const path = join(dataDir, 'archive.sqlite');
      const db = openDatabase(path);
      migrateSchema(db);
      index = new SqliteSearchIndex(db, 'always');
      await index.upsert([inside, ending]);
    });
    after(() => rmSync(dataDir, { recursive: true, force: true }));

    const ids = async (text: string): Promise<string[]> => (await index.search({ lang: 'zh', text, filters: {}, order: 'newest', offset: 0, limit: 10 } satisfies SearchQuery)).ids;

    it(`matches the last ${SINGLE_CHARACTER_PREFIXES} single characters anywhere, and those before them as written`, async () => {
      expect(SINGLE_CHARACTER_PREFIXES).to.equal(4);
      expect(await ids('乙 丙 丁 戊')).to.have.members([inside.id, ending.id]);
      expect(await ids('甲 乙 丙 丁')).to.have.members([inside.id, ending.id]);
      // A fifth character before them: 甲 is matched where it stands alone or ends a run.
      expect(await ids('甲 乙 丙 丁 戊')).to.deep.equal([ending.id]);
      // 甲 last: now 乙 is the fifth from the end, and no record holds it alone or ending a run.
      expect(await ids('乙 丙 丁 戊 甲')).to.deep.equal([]);
    });
  });
});
