import { expect } from 'chai';
import type { SearchIndex } from '../../src/domain/ports.ts';
import type { CanonicalRecord } from '../../src/domain/record.ts';
import type { SearchQuery } from '../../src/domain/search-query.ts';
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

    it('tolerates one typo from 5 letters, two from 9, none below 5', async () => {
      expect((await index.search(query({ text: 'pelcian' }))).total).to.equal(2);
      expect((await index.search(query({ text: 'lighthuose' }))).ids).to.deep.equal([id('lighthouse')]);
      expect((await index.search(query({ text: 'telecsopr' }))).ids).to.deep.equal([id('telescope')]);
      expect((await index.search(query({ text: 'cast' }))).total).to.equal(0);
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
      expect((await index.search(query({ lang: 'en', text: '灯塔' }))).total).to.equal(0);
    });

    it('searches model, author and prompt too', async () => {
      expect((await index.search(query({ text: 'opus' }))).ids).to.deep.equal([id('pelicanTitle')]);
      expect((await index.search(query({ text: 'make a crystal' }))).ids).to.include(id('crystal'));
    });

    it('applies filters exactly, combined with AND, with totals that add up', async () => {
      const svg = await index.search(query({ filters: { format: 'svg' } }));
      expect(svg.ids).to.have.members([id('pelicanTitle'), id('crystal')]);
      expect((await index.search(query({ filters: { format: 'svg', year: '2025' } }))).ids).to.deep.equal([id('pelicanTitle')]);
      expect((await index.search(query({ filters: { kind: 'timeline' } }))).ids).to.deep.equal([id('lighthouse')]);
      expect((await index.search(query({ filters: { source: 'x' } }))).ids).to.deep.equal([id('lighthouse')]);
      let sum = 0;
      for (const format of ['svg', 'animation', '3d', 'game', 'video'] as const) sum += (await index.search(query({ filters: { format } }))).total;
      expect(sum).to.equal(6);
      expect((await index.search(query({ text: 'pelican', filters: { format: 'animation' } }))).ids).to.deep.equal([id('pelicanNotes')]);
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
      for (const record of sameDay) await index.upsert([record]);
      const hits = await index.search(query({ filters: { year: '2020' }, order: 'newest' }));
      expect(hits.ids).to.deep.equal(sameDay.map((record) => record.id).sort());
    });

    it('answers a query of punctuation alone with nothing', async () => {
      expect(await index.search(query({ text: '"*()' }))).to.deep.equal({ total: 0, ids: [] });
    });
  });
}
