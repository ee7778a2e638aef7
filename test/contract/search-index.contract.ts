import { expect } from 'chai';
import type { SearchIndex } from '../../src/domain/ports.ts';
import type { CanonicalRecord } from '../../src/domain/record.ts';
import type { SearchPosition, SearchQuery } from '../../src/domain/search-query.ts';
import { makeRecord } from '../helpers/factories.ts';

/** Opens a fresh, empty index and a function that disposes of it. */
export type IndexFactory = () => Promise<{ index: SearchIndex; dispose: () => Promise<void> }>;

function query(overrides: Partial<SearchQuery>): SearchQuery {
  return { lang: 'en', filters: {}, order: 'relevance', offset: 0, limit: 50, ...overrides };
}

/** A small catalog whose answers are known by heart. */
export function searchFixture(): Record<string, CanonicalRecord> {
  return {
    pelicanTitle: makeRecord({ date: '2025-05-01', format: 'svg', model: 'Claude 3 Opus', title: { zh: '骑自行车的鹈鹕', en: 'A pelican riding a bicycle' }, notes: { zh: '线条画。', en: 'Line drawing on white.' } }),
    pelicanNotes: makeRecord({ date: '2025-06-01', format: 'animation', title: { zh: '海边的早晨', en: 'Morning by the sea' }, notes: { zh: '远处有一只鹈鹕飞过。', en: 'A pelican flies past in the distance.' } }),
    lighthouse: makeRecord({ date: '2024-02-10', format: '3d', kind: 'timeline', sourceUrl: 'https://x.com/demo/status/1', title: { zh: '旋转的灯塔', en: 'Rotating lighthouse' }, notes: { zh: '三维场景。', en: 'A three.js scene.' } }),
    telescope: makeRecord({ date: '2023-09-09', format: 'game', sourceUrl: 'https://www.reddit.com/r/x/comments/1/t', title: { zh: '望远镜游戏', en: 'Telescope adventure' }, notes: { zh: '看星星。', en: 'Look at the stars.' } }),
    cats: makeRecord({ date: '2023-01-05', format: 'video', title: { zh: '猫咪视频', en: 'Cats dancing' }, notes: { zh: '短片。', en: 'A short film.' } }),
    crystal: makeRecord({ date: '2023-01-05', format: 'svg', title: { zh: '水晶', en: 'Crystal sphere' }, notes: { zh: '折射。', en: 'Refraction study.' }, prompt: 'make a crystal sphere' }),
  };
}

/** The behaviour every SearchIndex adapter must show. */
export function searchIndexContract(name: string, open: IndexFactory): void {
  describe(`SearchIndex contract: ${name}`, () => {
    let index: SearchIndex;
    let dispose: () => Promise<void>;
    let records: Record<string, CanonicalRecord>;
    const id = (key: string): string => records[key]?.id ?? '';

    beforeEach(async () => {
      ({ index, dispose } = await open());
      records = searchFixture();
      await index.upsert(Object.values(records));
    });
    afterEach(async () => dispose());

    it('finds an exact word and counts exactly', async () => {
      const hits = await index.search(query({ text: 'pelican' }));
      expect(hits.total).to.equal(2);
      expect(hits.ids).to.have.members([id('pelicanTitle'), id('pelicanNotes')]);
      expect(await index.count()).to.equal(6);
    });

    it('lists every indexed record in each language with the change number it was written with', async () => {
      const first = records.pelicanTitle;
      if (!first) throw new Error('fixture');
      await index.upsert([{ ...first, seq: 41 }]);
      await index.upsert([{ ...first, seq: 42 }]);
      await index.remove([id('cats')]);
      for (const lang of ['zh', 'en'] as const) {
        const versions = new Map<string, number | null>();
        for await (const version of index.streamVersions(lang, 2)) versions.set(version.id, version.seq);
        expect(versions.size, lang).to.equal(5);
        expect(versions.get(first.id), lang).to.equal(42);
        expect(versions.get(id('lighthouse')), lang).to.equal(null);
        expect(versions.has(id('cats')), lang).to.equal(false);
      }
    });

    it('ranks a title match above a notes match', async () => {
      const hits = await index.search(query({ text: 'pelican' }));
      expect(hits.ids[0]).to.equal(id('pelicanTitle'));
    });

    it('ranks title matches first in a large tier too, typo matches included', async () => {
      // More matches than the embedded engine ranks one by one (500): newer records hold the word in their notes only.
      const titled = Array.from({ length: 3 }, (_, i) => makeRecord({ date: '2019-01-0' + (i + 1), sourceUrl: `https://example.org/titled/${i}`, title: { zh: '灯笼', en: `Paper lantern ${i}` } }));
      const noted = Array.from({ length: 520 }, (_, i) => makeRecord({ date: '2024-03-03', sourceUrl: `https://example.org/noted/${i}`, title: { zh: '夜景', en: `Night scene ${i}` }, notes: { zh: '灯笼', en: 'A lantern hangs here.' } }));
      await index.upsert([...titled, ...noted]);
      const newestTitled = titled.map((record) => record.id).reverse();
      for (const text of ['lantern', 'lantren']) {
        const hits = await index.search(query({ text, limit: 3 }));
        expect(hits.total, text).to.equal(523);
        expect(hits.ids, text).to.deep.equal(newestTitled);
      }
    });

    it('walks a relevance cursor past 10,050 matches to the end, every record once, while the catalog changes', async function () {
      // Meilisearch's writes are tasks of about a second each on a busy server: a few large batches.
      this.timeout(300_000);
      const day = (i: number): string => new Date(Date.UTC(2020, 0, 1) + (i % 400) * 86_400_000).toISOString().slice(0, 10);
      const many = Array.from({ length: 10_120 }, (_, i) =>
        makeRecord({
          date: day(i),
          sourceUrl: `https://example.org/harbor/${i}`,
          ...(i % 5 === 0 ? { title: { zh: '港口', en: `Harbor view ${i}` } } : { title: { zh: '夜景', en: `Night scene ${i}` }, notes: { zh: '港口', en: 'Seen from the harbor.' } }),
        }),
      );
      for (let i = 0; i < many.length; i += 5000) await index.upsert(many.slice(i, i + 5000));
      // The last in relevance order: the notes hold the word (the title outranks them), oldest, greatest id.
      const oldest = many.filter((_, i) => i % 5 !== 0 && i % 400 === 1).map((record) => record.id);
      const removed = oldest.sort().at(-1) ?? '';
      const newer = makeRecord({ date: '2027-01-01', sourceUrl: 'https://example.org/harbor/newer', title: { zh: '港口', en: 'Harbor at dawn' } });
      const { ids, totals } = await walk(index, { text: 'harbor', limit: 1010 }, async (page) => {
        // At 10,100, past Meilisearch's former limit: a record ranked first arrives, and one not yet reached leaves.
        if (page !== 9) return;
        await index.upsert([newer]);
        await index.remove([removed]);
      });
      expect(totals[0]).to.equal(10_120);
      expect(ids.length).to.equal(10_119);
      expect(new Set(ids).size, 'every record once').to.equal(ids.length);
      expect(ids).to.have.members(many.map((record) => record.id).filter((recordId) => recordId !== removed));
    });

    it('keeps a relevance walk exact when many records are published or removed before its position', async () => {
      const kites = Array.from({ length: 40 }, (_, i) => makeRecord({ date: `2024-0${1 + (i % 9)}-1${i % 10}`, sourceUrl: `https://example.org/kite/${i}`, title: { zh: '风筝', en: `Kite ${i}` } }));
      await index.upsert(kites);
      const order = (await index.search(query({ text: 'kite', limit: 100 }))).ids;
      // 25 newer records, all ranked before the position, published after the second page.
      const newer = Array.from({ length: 25 }, (_, i) => makeRecord({ date: '2027-02-02', sourceUrl: `https://example.org/kite/new/${i}`, title: { zh: '风筝', en: `New kite ${i}` } }));
      const published = await walk(index, { text: 'kite', limit: 5 }, async (page) => {
        if (page === 1) await index.upsert(newer);
      });
      expect(published.ids, 'published before the position').to.deep.equal(order);
      // Then the 15 records of another walk's first three pages leave.
      const now = (await index.search(query({ text: 'kite', limit: 100 }))).ids;
      const removed = await walk(index, { text: 'kite', limit: 5 }, async (page) => {
        if (page === 2) await index.remove(now.slice(0, 15));
      });
      expect(removed.ids, 'removed before the position').to.deep.equal(now);
    });

    it('tolerates one typo from 5 letters, two from 9, none below 5', async () => {
      expect((await index.search(query({ text: 'pelcian' }))).total).to.equal(2);
      expect((await index.search(query({ text: 'lighthuose' }))).ids).to.deep.equal([id('lighthouse')]);
      expect((await index.search(query({ text: 'telecsopr' }))).ids).to.deep.equal([id('telescope')]);
      expect((await index.search(query({ text: 'cast' }))).total).to.equal(0);
    });

    it('tolerates typos in words holding digits and in words joined by punctuation', async () => {
      const models = [
        makeRecord({ date: '2026-04-01', model: 'DeepSeek-R1', sourceUrl: 'https://example.org/typo/r1', title: { zh: '推理', en: 'Reasoning sketch' } }),
        makeRecord({ date: '2026-04-02', model: 'Qwen3-Coder', sourceUrl: 'https://example.org/typo/qwen', title: { zh: '代码', en: 'Coding sketch' } }),
      ];
      await index.upsert(models);
      expect((await index.search(query({ text: 'qwne3' }))).ids).to.deep.equal([models[1]?.id]);
      expect((await index.search(query({ text: 'deepsek-r1' }))).ids, 'the last term').to.deep.equal([models[0]?.id]);
      expect((await index.search(query({ text: 'sketch deepsek-r1' }))).ids).to.deep.equal([models[0]?.id]);
      expect((await index.search(query({ text: '"deepsek-r1"' }))).total, 'a quoted phrase is as written').to.equal(0);
    });

    it('finds two words typed together as the two side by side', async () => {
      const deepseek = makeRecord({ date: '2026-05-01', model: 'DeepSeek-V3', sourceUrl: 'https://example.org/split/v3', title: { zh: '港口', en: 'Harbor sketch' } });
      await index.upsert([deepseek]);
      expect((await index.search(query({ text: 'deepseekv3' }))).ids, 'a model name without its hyphen').to.deep.equal([deepseek.id]);
      expect((await index.search(query({ text: 'deepseekv3 harbor' }))).ids, 'not the last word').to.deep.equal([deepseek.id]);
      expect((await index.search(query({ text: 'gpt4o' }))).total, 'the records by GPT-4o').to.equal(Object.values(records).filter((record) => record.model === 'GPT-4o').length);
      expect((await index.search(query({ text: 'threejs' }))).ids, 'a word without its dot').to.deep.equal([id('lighthouse')]);
      expect((await index.search(query({ text: 'claude3' }))).ids, 'a piece of one digit').to.deep.equal([id('pelicanTitle')]);
      expect((await index.search(query({ text: 'jsthree' }))).total, 'the two pieces in the order written').to.equal(0);
      expect((await index.search(query({ text: 'deepseekv3x' }))).total, 'a piece the index lacks').to.equal(0);
      expect((await index.search(query({ text: '"deepseekv3"' }))).total, 'a quoted word is as written').to.equal(0);
      // Inside words joined by a dot: gemini2.5 is gemini 2 5.
      const gemini = makeRecord({ date: '2026-05-02', model: 'Gemini 2.5 Pro', sourceUrl: 'https://example.org/split/gemini', title: { zh: '码头', en: 'Pier study' } });
      await index.upsert([gemini]);
      expect((await index.search(query({ text: 'gemini2.5' }))).ids, 'a version after a name').to.deep.equal([gemini.id]);
      expect((await index.search(query({ text: 'gemini2.6' }))).total, 'another version').to.equal(0);
    });

    it('counts a typo on the first letter as two', async () => {
      // 'welican' is one edit from 'pelican', on its first letter: two typos, more than 7 letters allow.
      expect((await index.search(query({ text: 'welican' }))).total).to.equal(0);
      expect((await index.search(query({ text: 'elican' }))).total).to.equal(0);
      // 10 letters allow two typos, so a first-letter typo is tolerated there.
      expect((await index.search(query({ text: 'kighthouse' }))).ids).to.deep.equal([id('lighthouse')]);
      expect((await index.search(query({ text: 'kighthuose' }))).total).to.equal(0);
    });

    it('puts exact matches before typo matches', async () => {
      const extra = makeRecord({ date: '2026-01-01', title: { zh: '水晶球', en: 'Crystals everywhere' }, notes: { zh: '多', en: 'Many.' } });
      await index.upsert([extra]);
      const hits = await index.search(query({ text: 'crystal', lang: 'en' }));
      expect(hits.ids[0]).to.equal(id('crystal'));
    });

    it('matches the last word as a prefix', async () => {
      expect((await index.search(query({ text: 'lighth' }))).ids).to.deep.equal([id('lighthouse')]);
      expect((await index.search(query({ text: 'rotating lig' }))).ids).to.deep.equal([id('lighthouse')]);
      expect((await index.search(query({ text: 'lig rotating' }))).total).to.equal(0);
    });

    it('matches any Chinese substring of two or more characters, and only contiguous ones', async () => {
      expect((await index.search(query({ lang: 'zh', text: '鹈鹕' }))).total).to.equal(2);
      expect((await index.search(query({ lang: 'zh', text: '自行车的鹈' }))).ids).to.deep.equal([id('pelicanTitle')]);
      expect((await index.search(query({ lang: 'zh', text: '车鹈' }))).total).to.equal(0);
      expect((await index.search(query({ lang: 'zh', text: '灯塔' }))).ids).to.deep.equal([id('lighthouse')]);
      // The text of both languages is searched: Chinese text finds the record in English too.
      expect((await index.search(query({ lang: 'en', text: '灯塔' }))).ids).to.deep.equal([id('lighthouse')]);
    });

    it('matches Chinese written without spaces also as its words apart', async () => {
      const dusk = makeRecord({ date: '2026-04-01', sourceUrl: 'https://example.org/words/dusk', title: { zh: '黄昏时分，海边的灯塔', en: 'A lighthouse by the sea at dusk' }, notes: { zh: '体素画。', en: 'Voxels.' } });
      const written = makeRecord({ date: '2020-01-01', sourceUrl: 'https://example.org/words/written', title: { zh: '黄昏的灯塔', en: 'The dusk lighthouse' }, notes: { zh: '水彩。', en: 'Watercolour.' } });
      await index.upsert([dusk, written]);
      const zh = async (text: string) => {
        const hits = await index.search(query({ lang: 'zh', text }));
        return { total: hits.total, ids: hits.ids };
      };
      // As written, and its words apart (黄昏, 灯塔; the particle 的 is no condition). The embedded
      // engine puts the first before the second (test/search/chinese-substrings.test.ts); Meilisearch
      // ranks them by its own rules (docs/search.md).
      const both = await zh('黄昏的灯塔');
      expect(both.total).to.equal(2);
      expect(both.ids).to.have.members([written.id, dusk.id]);
      expect(await zh('"黄昏的灯塔"'), 'quoted: as written alone').to.deep.equal({ total: 1, ids: [written.id] });
      // The quotation marks a Chinese input method writes quote as " does.
      for (const quoted of ['“黄昏的灯塔”', '「黄昏的灯塔」', '『黄昏的灯塔』']) expect(await zh(quoted), quoted).to.deep.equal({ total: 1, ids: [written.id] });
      expect(await zh('“黄昏灯塔”')).to.deep.equal({ total: 0, ids: [] });
      expect((await zh('灯塔 -“黄昏的灯塔”')).ids).to.have.members([dusk.id, id('lighthouse')]);
      expect((await zh('黄昏里的灯塔')).ids).to.have.members([written.id, dusk.id]);
      // 骑自行车的鹈鹕 holds 鹈鹕 and 自行; the notes 远处有一只鹈鹕飞过 hold no 自行.
      expect(await zh('鹈鹕骑自行车')).to.deep.equal({ total: 1, ids: [id('pelicanTitle')] });
      expect(await zh('黄昏灯塔 -体素')).to.deep.equal({ total: 1, ids: [written.id] });
      // A word no record holds keeps the run from matching apart, as a space would.
      expect((await zh('黄昏的望远镜')).total).to.equal(0);
    });

    it('searches model, author and prompt too', async () => {
      expect((await index.search(query({ text: 'opus' }))).ids).to.deep.equal([id('pelicanTitle')]);
      expect((await index.search(query({ text: 'make a crystal' }))).ids).to.include(id('crystal'));
    });

    it('applies filters exactly, combined with AND, with totals that add up', async () => {
      const svg = await index.search(query({ filters: { format: ['svg'] } }));
      expect(svg.ids).to.have.members([id('pelicanTitle'), id('crystal')]);
      expect((await index.search(query({ filters: { format: ['svg'], year: ['2025'] } }))).ids).to.deep.equal([id('pelicanTitle')]);
      expect((await index.search(query({ filters: { kind: ['timeline'] } }))).ids).to.deep.equal([id('lighthouse')]);
      expect((await index.search(query({ filters: { source: ['x'] } }))).ids).to.deep.equal([id('lighthouse')]);
      let sum = 0;
      for (const format of ['svg', 'animation', '3d', 'game', 'video'] as const) sum += (await index.search(query({ filters: { format: [format] } }))).total;
      expect(sum).to.equal(6);
      expect((await index.search(query({ text: 'pelican', filters: { format: ['animation'] } }))).ids).to.deep.equal([id('pelicanNotes')]);
    });

    it('orders by date descending then id, or the reverse for oldest', async () => {
      const newest = await index.search(query({ order: 'newest' }));
      const expected = Object.values(records)
        .sort((a, b) => (a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date < b.date ? 1 : -1))
        .map((record) => record.id);
      expect(newest.ids).to.deep.equal(expected);
      expect((await index.search(query({ order: 'oldest' }))).ids).to.deep.equal([...expected].reverse());
    });

    it('pages without overlap or gaps', async () => {
      const seen: string[] = [];
      for (let offset = 0; offset < 6; offset += 4) seen.push(...(await index.search(query({ order: 'newest', offset, limit: 4 }))).ids);
      expect(seen).to.have.length(6);
      expect(new Set(seen).size).to.equal(6);
      const past = await index.search(query({ order: 'newest', offset: 100, limit: 4 }));
      expect(past).to.deep.equal({ total: 6, ids: [] });
    });

    it('replaces a record on upsert, follows a changed date and removes records', async () => {
      const moved = { ...(records.cats as CanonicalRecord), date: '2026-10-10', title: { zh: '狗狗', en: 'Dogs dancing' } };
      await index.upsert([moved]);
      expect((await index.search(query({ text: 'cats' }))).total).to.equal(0);
      expect((await index.search(query({ order: 'newest', limit: 1 }))).ids).to.deep.equal([moved.id]);
      expect(await index.count()).to.equal(6);
      await index.remove([moved.id]);
      expect((await index.search(query({ text: 'dogs' }))).total).to.equal(0);
      expect(await index.count()).to.equal(5);
    });

    it('keeps id order within one day however the ids arrive', async () => {
      const sameDay = ['k-0', 'k-1', ...Array.from({ length: 30 }, (_, i) => `k-0${'9'.repeat(i + 1)}`)].map((recordId, i) =>
        makeRecord({ id: recordId, date: '2020-02-02', sourceUrl: `https://example.org/same-day/${i}` }),
      );
      // One write per record, in this order; sent together, so an engine with a task queue may batch them.
      await Promise.all(sameDay.map((record) => index.upsert([record])));
      const hits = await index.search(query({ filters: { year: ['2020'] }, order: 'newest' }));
      expect(hits.ids).to.deep.equal(sameDay.map((record) => record.id).sort());
    });

    it('answers a query of punctuation alone with nothing', async () => {
      expect(await index.search(query({ text: '"*()' }))).to.deep.equal({ total: 0, ids: [] });
    });

    searchClientContract(() => ({ index, records }));
  });
}

/** Ids of a search, sorted, for comparisons where the order is not the point. */
async function idsOf(index: SearchIndex, overrides: Partial<SearchQuery>): Promise<string[]> {
  return (await index.search(query({ limit: 50, ...overrides }))).ids.sort();
}

/** Every page of a cursor walk, following `next` until there is none; `between` runs after each page. */
async function walk(index: SearchIndex, overrides: Partial<SearchQuery>, between: (page: number) => Promise<void> = async () => {}): Promise<{ ids: string[]; totals: number[] }> {
  const ids: string[] = [];
  const totals: number[] = [];
  let after: SearchPosition | undefined;
  for (let page = 0; page < 1000; page += 1) {
    const hits = await index.search(query({ ...overrides, ...(after ? { after } : {}) }));
    ids.push(...hits.ids);
    totals.push(hits.total);
    if (!hits.next) return { ids, totals };
    expect(hits.ids.length, 'a page with a next holds records').to.be.above(0);
    after = hits.next;
    await between(page);
  }
  throw new Error('the walk did not end');
}

/** Facets, multi-value and new filters, cursors and query syntax: what search clients rely on. */
function searchClientContract(fixture: () => { index: SearchIndex; records: Record<string, CanonicalRecord> }): void {
  let index: SearchIndex;
  let records: Record<string, CanonicalRecord>;
  const id = (key: string): string => records[key]?.id ?? '';
  beforeEach(() => ({ index, records } = fixture()));

  it('takes several values per filter: any of them within a field, all fields together', async () => {
    expect(await idsOf(index, { filters: { format: ['svg', 'game'] } })).to.deep.equal([id('pelicanTitle'), id('crystal'), id('telescope')].sort());
    expect(await idsOf(index, { filters: { format: ['svg', 'game'], year: ['2023'] } })).to.deep.equal([id('crystal'), id('telescope')].sort());
    expect(await idsOf(index, { filters: { source: ['x', 'reddit'] } })).to.deep.equal([id('lighthouse'), id('telescope')].sort());
    expect((await index.search(query({ filters: { kind: ['gallery', 'timeline'] } }))).total).to.equal(6);
    expect((await index.search(query({ text: 'pelican', filters: { year: ['2024', '2025'], format: ['animation', 'video'] } }))).ids).to.deep.equal([id('pelicanNotes')]);
  });

  it('filters model and author exactly but case-insensitively', async () => {
    const gpt4 = makeRecord({ date: '2023-03-20', model: 'GPT-4', author: 'Ada Lovelace', sourceUrl: 'https://example.org/m/1' });
    const lower = makeRecord({ date: '2023-04-01', model: 'gpt-4', author: 'ADA LOVELACE', sourceUrl: 'https://example.org/m/2' });
    const turbo = makeRecord({ date: '2023-11-06', model: 'GPT-4 Turbo', author: 'Ada', sourceUrl: 'https://example.org/m/3' });
    await index.upsert([gpt4, lower, turbo]);
    expect(await idsOf(index, { filters: { model: ['gpt-4'] } })).to.deep.equal([gpt4.id, lower.id].sort());
    expect(await idsOf(index, { filters: { model: ['GPT-4', 'Claude 3 Opus'] } })).to.deep.equal([gpt4.id, lower.id, id('pelicanTitle')].sort());
    expect((await index.search(query({ filters: { model: ['GPT-4o'] } }))).total).to.equal(5);
    expect((await index.search(query({ filters: { model: ['GPT'] } }))).total).to.equal(0);
    expect(await idsOf(index, { filters: { author: ['ada lovelace'] } })).to.deep.equal([gpt4.id, lower.id].sort());
    expect(await idsOf(index, { filters: { author: ['Ada'], model: ['gpt-4 turbo'] } })).to.deep.equal([turbo.id]);
  });

  it('bounds the date of the work (from, to, inclusive) and the compilation date (since)', async () => {
    expect(await idsOf(index, { filters: { from: '2024-01-01' } })).to.deep.equal([id('pelicanTitle'), id('pelicanNotes'), id('lighthouse')].sort());
    expect(await idsOf(index, { filters: { to: '2023-09-09' } })).to.deep.equal([id('telescope'), id('cats'), id('crystal')].sort());
    expect(await idsOf(index, { filters: { from: '2023-09-09', to: '2024-02-10' } })).to.deep.equal([id('telescope'), id('lighthouse')].sort());
    expect(await idsOf(index, { text: 'pelican', filters: { to: '2025-05-31' } })).to.deep.equal([id('pelicanTitle')]);
    const recompiled = { ...(records.cats as CanonicalRecord), updated: '2026-12-01' };
    await index.upsert([recompiled]);
    expect(await idsOf(index, { filters: { since: '2026-11-21' } })).to.deep.equal([recompiled.id]);
    expect((await index.search(query({ filters: { since: '2026-11-20' } }))).total).to.equal(6);
    expect((await index.search(query({ filters: { since: '2026-12-02' } }))).total).to.equal(0);
  });

  it('counts facets exactly, each with its own filter left out', async () => {
    const all = await index.search(query({ order: 'newest', limit: 1, facets: ['format', 'kind', 'year', 'source', 'model'] }));
    expect(all.facets).to.deep.equal({
      format: { svg: 2, animation: 1, '3d': 1, game: 1, video: 1 },
      kind: { gallery: 5, timeline: 1 },
      year: { '2023': 3, '2024': 1, '2025': 2 },
      source: { github: 4, x: 1, reddit: 1 },
      model: { 'GPT-4o': 5, 'Claude 3 Opus': 1 },
    });
    const filtered = await index.search(query({ order: 'newest', filters: { format: ['svg'], year: ['2023'] }, facets: ['format', 'year', 'kind'] }));
    expect(filtered.ids).to.deep.equal([id('crystal')]);
    expect(filtered.facets).to.deep.equal({ format: { svg: 1, game: 1, video: 1 }, year: { '2025': 1, '2023': 1 }, kind: { gallery: 1 } });
    const none = await index.search(query({ text: 'nothingmatcheshere', facets: ['format'] }));
    expect(none).to.deep.equal({ total: 0, ids: [], facets: { format: {} } });
  });

  it('gives facet counts equal to the totals of the matching filtered queries', async () => {
    const cases: Partial<SearchQuery>[] = [
      { order: 'newest' },
      { text: 'pelican' },
      { text: 'a', filters: { year: ['2023', '2025'] } },
      { filters: { format: ['svg', 'video'], source: ['github'] } },
      { text: 'lighthouse OR telescope OR cats', filters: { kind: ['gallery'] } },
    ];
    const names = ['format', 'kind', 'year', 'source', 'model'] as const;
    for (const overrides of cases) {
      const hits = await index.search(query({ ...overrides, facets: names }));
      for (const name of names) {
        const counts = hits.facets?.[name] ?? {};
        let sum = 0;
        for (const [value, count] of Object.entries(counts)) {
          const alone = await index.search(query({ ...overrides, filters: { ...overrides.filters, [name]: [value] } }));
          expect(count, `${JSON.stringify(overrides)}: ${name}=${value}`).to.equal(alone.total);
          sum += count;
        }
        const unfiltered = await index.search(query({ ...overrides, filters: { ...overrides.filters, [name]: undefined } }));
        expect(sum, `${JSON.stringify(overrides)}: ${name} adds up`).to.equal(unfiltered.total);
      }
    }
  });

  it('counts at most the 100 most frequent values of a facet', async () => {
    const many = Array.from({ length: 110 }, (_, i) => makeRecord({ model: `Model ${String(i).padStart(3, '0')}`, sourceUrl: `https://example.org/many-models/${i}` }));
    const frequent = Array.from({ length: 3 }, (_, i) => makeRecord({ model: 'Model 109', sourceUrl: `https://example.org/frequent/${i}` }));
    await index.upsert([...many, ...frequent]);
    const { facets } = await index.search(query({ order: 'newest', limit: 1, facets: ['model'] }));
    const models = Object.entries(facets?.model ?? {});
    expect(models).to.have.length(100);
    expect(facets?.model?.['Model 109']).to.equal(4);
    expect(facets?.model?.['GPT-4o']).to.equal(5);
    // Ties are ordered by value: of the 110 models counted once, the first ones in value order are kept.
    expect(facets?.model).to.have.property('Model 000');
    expect(facets?.model).to.not.have.property('Model 108');
  });

  it('walks every result set to its end with a cursor, in date order and by relevance', async () => {
    const newest = await index.search(query({ order: 'newest' }));
    for (const limit of [1, 2, 4]) {
      expect((await walk(index, { order: 'newest', limit })).ids, `newest by ${limit}`).to.deep.equal(newest.ids);
      expect((await walk(index, { order: 'oldest', limit })).ids, `oldest by ${limit}`).to.deep.equal([...newest.ids].reverse());
    }
    const text = 'pelican OR lighthouse OR crystal OR cats';
    const ranked = await index.search(query({ text }));
    expect(ranked.total).to.equal(5);
    const walked = await walk(index, { text, limit: 2 });
    expect(walked.ids).to.deep.equal(ranked.ids);
    expect((await walk(index, { text, order: 'newest', limit: 2 })).ids).to.have.members(ranked.ids);
    expect((await walk(index, { filters: { format: ['svg', 'game'] }, order: 'oldest', limit: 1 })).ids).to.have.length(3);
    // An offset page's next continues after it.
    const second = await index.search(query({ order: 'newest', offset: 2, limit: 2 }));
    const rest = await index.search(query({ order: 'newest', limit: 50, ...(second.next ? { after: second.next } : {}) }));
    expect([...second.ids, ...rest.ids]).to.deep.equal(newest.ids.slice(2));
    expect(rest.next).to.equal(undefined);
  });

  it('never repeats or skips a record when the catalog changes between pages', async () => {
    const original = (await index.search(query({ order: 'newest' }))).ids;
    const added: CanonicalRecord[] = [];
    const removed = id('telescope');
    const { ids } = await walk(index, { order: 'newest', limit: 2 }, async (page) => {
      if (page !== 0) return;
      // A record sorting before the cursor, one after it, and one removed further on.
      added.push(makeRecord({ date: '2026-06-06', sourceUrl: 'https://example.org/mid-walk/newer' }), makeRecord({ date: '2020-01-01', sourceUrl: 'https://example.org/mid-walk/older' }));
      await index.upsert(added);
      await index.remove([removed]);
    });
    expect(new Set(ids).size, 'no repeats').to.equal(ids.length);
    expect(ids).to.include.members(original.filter((recordId) => recordId !== removed));
    expect(ids).to.include((added[1] as CanonicalRecord).id);
    expect(ids).to.not.include((added[0] as CanonicalRecord).id);

    const text = 'pelican OR lighthouse OR crystal OR cats';
    const ranked = (await index.search(query({ text }))).ids;
    const relevance = await walk(index, { text, limit: 1 }, async (page) => {
      if (page === 1) await index.upsert([makeRecord({ date: '2027-01-01', title: { zh: '新的鹈鹕', en: 'Another pelican' }, sourceUrl: 'https://example.org/mid-walk/pelican' })]);
    });
    expect(new Set(relevance.ids).size, 'no repeats by relevance').to.equal(relevance.ids.length);
    expect(relevance.ids).to.include.members(ranked);
  });

  it('matches a quoted phrase exactly, leaves out -words and takes OR', async () => {
    expect((await index.search(query({ text: '"pelican riding"' }))).ids).to.deep.equal([id('pelicanTitle')]);
    expect((await index.search(query({ text: '"riding pelican"' }))).total).to.equal(0);
    expect((await index.search(query({ text: '"pelcian"' }))).total).to.equal(0);
    expect((await index.search(query({ text: 'pelican -bicycle' }))).ids).to.deep.equal([id('pelicanNotes')]);
    expect((await index.search(query({ text: '-distance pelican' }))).ids).to.deep.equal([id('pelicanTitle')]);
    expect((await index.search(query({ text: 'pelican -"a bicycle"' }))).ids).to.deep.equal([id('pelicanNotes')]);
    expect((await index.search(query({ text: '-pelican' }))).total).to.equal(4);
    expect(await idsOf(index, { text: 'lighthouse OR telescope' })).to.deep.equal([id('lighthouse'), id('telescope')].sort());
    expect(await idsOf(index, { text: 'crystal OR dancing' })).to.deep.equal([id('crystal'), id('cats')].sort());
    expect(await idsOf(index, { text: 'lighthouse OR telescope -stars' })).to.deep.equal([id('lighthouse')]);
    expect(await idsOf(index, { text: 'rotating lighthouse OR scene' })).to.deep.equal([id('lighthouse')]);
    expect((await index.search(query({ text: 'lighthouse OR' }))).total, 'a trailing OR is a word').to.equal(0);
    expect(await idsOf(index, { lang: 'zh', text: '灯塔 OR 望远镜' })).to.deep.equal([id('lighthouse'), id('telescope')].sort());
    // OR after an exclusion is the word "or", not a join of the terms around the exclusion.
    expect((await index.search(query({ text: 'lighthouse -stars OR telescope' }))).total).to.equal(0);
    // A quoted Chinese character matches wherever it stands, as unquoted: 灯 is inside the run 旋转的灯塔, not at its end.
    expect(await idsOf(index, { lang: 'zh', text: '"灯"' })).to.deep.equal(await idsOf(index, { lang: 'zh', text: '灯' }));
    expect(await idsOf(index, { lang: 'zh', text: '"灯"' })).to.include(id('lighthouse'));
    expect((await index.search(query({ lang: 'zh', text: 'lighthouse -"灯"' }))).total).to.equal(0);
  });

  it('matches a quoted Chinese phrase across punctuation and spaces as written, the first run ending and the last starting a run of the text', async () => {
    const beam = makeRecord({ date: '2026-03-03', sourceUrl: 'https://example.org/phrase/beam', title: { zh: '灯塔的夜', en: 'Night of the tower' }, notes: { zh: '灯塔亮起，光束开始旋转 缓缓 停下。', en: 'The beam turns.' } });
    const apart = makeRecord({ date: '2026-03-04', sourceUrl: 'https://example.org/phrase/apart', title: { zh: '两段', en: 'Two parts' }, notes: { zh: '灯塔亮起 then 光束开始。', en: 'A word between.' } });
    await index.upsert([beam, apart]);
    const zh = async (text: string): Promise<string[]> => (await index.search(query({ lang: 'zh', text }))).ids;
    expect(await zh('"亮起，光束"')).to.deep.equal([beam.id]);
    expect(await zh('"亮起 光束"'), 'a space stands for any separator').to.deep.equal([beam.id]);
    expect(await zh('"塔亮起。光束开"'), 'the first run ends a run of the text, the last begins one').to.deep.equal([beam.id]);
    expect(await zh('"旋转，缓缓，停下"'), 'a run between two is a whole run').to.deep.equal([beam.id]);
    expect(await zh('"旋转 缓 停下"'), 'a run in the middle must be whole').to.deep.equal([]);
    expect(await zh('"亮，光束"'), '亮 does not end its run').to.deep.equal([]);
    expect(await zh('"亮起，束"'), '束 does not begin its run').to.deep.equal([]);
    expect(await zh('"灯塔亮起光束"'), 'written together is not written apart').to.deep.equal([]);
    expect(await zh('"起，光"'), 'a lone last character is a prefix').to.deep.equal([beam.id]);
    expect(await zh('灯塔 -"亮起，光束"')).to.not.include(beam.id);
    expect(await zh('灯塔 -"亮起，光束"')).to.include(apart.id);
  });

  it('ranks the records of a model label equal to the text before its relatives', async () => {
    const relatives = [
      makeRecord({ date: '2026-01-01', model: 'GPT-4 Turbo', title: { zh: '新作', en: 'A GPT-4 style robot' }, sourceUrl: 'https://example.org/boost/1' }),
      makeRecord({ date: '2026-02-01', model: 'GPT-4.1', title: { zh: '新作', en: 'GPT-4 again' }, sourceUrl: 'https://example.org/boost/2' }),
    ];
    const exact = makeRecord({ date: '2023-03-20', model: 'gpt-4', title: { zh: '旧作', en: 'An early drawing' }, sourceUrl: 'https://example.org/boost/3' });
    await index.upsert([...relatives, exact]);
    const hits = await index.search(query({ text: 'GPT-4' }));
    expect(hits.ids[0]).to.equal(exact.id);
    expect(hits.ids).to.include.members(relatives.map((record) => record.id));
  });

  it('finds words of other scripts as written, whole, as the last word\'s prefix or with a typo, counting what it lists (й, ё, final ς)', async () => {
    const russian = makeRecord({ title: { zh: '俄语标题', en: 'Новый ёжик' } });
    const greek = makeRecord({ title: { zh: '希腊标题', en: 'Greek Πελεκάνος mosaic' } });
    await index.upsert([russian, greek]);
    try {
      for (const [text, expected] of [['новый', russian.id], ['Новый ёжик', russian.id], ['ёжи', russian.id], ['Πελεκάνος', greek.id], ['Πελεκάν', greek.id], ['ΠΕΛΕΚΆΝΟΣ', greek.id]] as const) {
        const hits = await index.search(query({ text, limit: 10 }));
        expect({ total: hits.total, ids: hits.ids }, text).to.deep.equal({ total: 1, ids: [expected] });
      }
      // With a typo, as Latin words: й typed as и, the Greek accent left out.
      for (const [text, expected] of [['новыи ёжик', russian.id], ['πελεκανος mosaic', greek.id]] as const) expect((await index.search(query({ text }))).ids, text).to.deep.equal([expected]);
    } finally {
      await index.remove([russian.id, greek.id]);
    }
  });

  it('finds full-width letters and ligatures as the letters they stand for, typed either way', async () => {
    const wide = makeRecord({ title: { zh: '全角标题', en: 'ＦＵＬＬＷＩＤＴＨ letters ﬁsh poster' } });
    await index.upsert([wide]);
    try {
      for (const text of ['fullwidth', 'ＦＵＬＬＷＩＤＴＨ', 'fish poster', 'ﬁsh']) expect((await index.search(query({ text }))).ids, text).to.deep.equal([wide.id]);
    } finally {
      await index.remove([wide.id]);
    }
  });

  it('finds a word written against symbols (<svg>, x=1|y=2, 30°C→warm) as that word, in the field holding it', async () => {
    const markup = makeRecord({ date: '2020-01-01', title: { zh: '手写的<glyphs>', en: 'Hand-written <svg> <glyphs>' }, notes: { zh: '测试。', en: 'Drawn at 30°C→warm with x=1|y=2.' } });
    await index.upsert([markup]);
    try {
      for (const text of ['glyphs', 'warm', 'y 2', '"x 1 y 2"']) expect((await index.search(query({ text }))).ids, text).to.deep.equal([markup.id]);
      // Every record's prompt category is svg-illustration: the title's <svg> ranks this one first, though it is the oldest.
      expect((await index.search(query({ text: 'svg', limit: 3 }))).ids[0]).to.equal(markup.id);
      expect((await index.search(query({ lang: 'zh', text: 'glyphs' }))).ids).to.deep.equal([markup.id]);
    } finally {
      await index.remove([markup.id]);
    }
  });

  it('finds nothing for words that look like an engine\'s own encoding of Chinese text', async () => {
    // Meilisearch's documents hold Chinese as codes of Latin letters (qx…, qy…: documents.ts).
    for (const text of ['qx', 'qy', 'qxb', 'pelican qx', 'qxbaaa']) expect((await index.search(query({ text }))).total, text).to.equal(0);
  });

  it('splits mixed scripts into words of each, and finds either language in either', async () => {
    expect((await index.search(query({ lang: 'en', text: '鹈鹕bicycle' }))).ids).to.deep.equal([id('pelicanTitle')]);
    expect((await index.search(query({ lang: 'zh', text: '鹈鹕bicycle' }))).ids).to.deep.equal([id('pelicanTitle')]);
    expect(await idsOf(index, { lang: 'zh', text: 'pelican' })).to.deep.equal([id('pelicanTitle'), id('pelicanNotes')].sort());
    expect((await index.search(query({ lang: 'zh', text: 'lighthouse' }))).ids).to.deep.equal([id('lighthouse')]);
  });
}
