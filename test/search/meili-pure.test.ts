import { expect } from 'chai';
import { cjkBigramText, cjkCharacterText, cjkCode, cjkRunStartCode, toMeiliDocument } from '../../src/search/meili/documents.ts';
import { resumeAt } from '../../src/search/meili/search.ts';
import { afterExpression, allOf, filterExpression, filterValue, pageWindow, queryTexts, sortFor } from '../../src/search/meili/query.ts';
import { parseSearchText } from '../../src/search/search-text.ts';
import { dayNumber } from '../../src/domain/record.ts';
import { MAX_TOTAL_HITS, RANKING_RULES, REQUEST_TIMEOUT_MS, SEARCH_CUTOFF_MS, SEARCHABLE_ATTRIBUTES, freshIndexName, indexName, indexSettings, settingsToUpdate } from '../../src/search/meili/settings.ts';
import { MeiliTaskError, settle, settleUnless } from '../../src/search/meili/tasks.ts';
import { SCHEMAS } from '../../src/validation/schemas.ts';
import type { EnqueuedTask, EnqueuedTaskPromise, Task } from 'meilisearch';
import { makeRecord } from '../helpers/factories.ts';

describe('Meilisearch adapter, pure parts', () => {
  describe('settings', () => {
    it('names the live and the fresh index of each language, with an optional prefix', () => {
      expect([indexName('zh'), indexName('en', 't1_'), freshIndexName('zh', 't1_')]).to.deep.equal(['specimens_zh', 't1_specimens_en', 't1_specimens_zh_new']);
    });

    it('searches the texts by the embedded engine’s weight classes, each followed by its CJK codes', () => {
      expect(SEARCHABLE_ATTRIBUTES).to.deep.equal(['title', 'titleCjk', 'meta', 'metaCjk', 'text', 'textCjk', 'cjkChars']);
    });

    it('filters on the facets, model, author, days and id, sorts on date with id as tiebreak, typo thresholds 5 and 9', () => {
      const settings = indexSettings('en');
      expect(settings.filterableAttributes).to.have.members(['source', 'format', 'kind', 'year', 'model', 'author', 'day', 'updatedDay', 'id']);
      expect(settings.faceting).to.deep.equal({ maxValuesPerFacet: 1000, sortFacetValuesBy: { '*': 'count' } });
      expect(settings.sortableAttributes).to.deep.equal(['date', 'id']);
      expect(settings.typoTolerance).to.deep.equal({ enabled: true, minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 }, disableOnAttributes: ['id'] });
      expect(settings.localizedAttributes).to.equal(undefined);
      expect(indexSettings('zh').localizedAttributes).to.deep.equal([{ attributePatterns: ['title', 'text'], locales: ['cmn'] }]);
    });

    it('puts sort first (date orders ignore relevance) and ends relevance ties with date descending, then id', () => {
      expect(RANKING_RULES[0]).to.equal('sort');
      expect(RANKING_RULES.slice(-2)).to.deep.equal(['date:desc', 'id:asc']);
    });

    it('never lets Meilisearch cut a search short (it would rank only part of it, silently)', () => {
      expect(indexSettings('zh').searchCutoffMs).to.equal(SEARCH_CUTOFF_MS);
      expect(SEARCH_CUTOFF_MS).to.be.above(REQUEST_TIMEOUT_MS);
    });

    it('caps neither depth nor totals below what an index can hold (32-bit document ids)', () => {
      expect(MAX_TOTAL_HITS).to.equal(2 ** 32 - 1);
      expect(indexSettings('zh').pagination).to.deep.equal({ maxTotalHits: MAX_TOTAL_HITS });
      expect(settingsToUpdate(indexSettings('en'), { ...indexSettings('en'), pagination: { maxTotalHits: 10_050 } })).to.deep.equal({ pagination: { maxTotalHits: MAX_TOTAL_HITS } });
    });

    it('sends only the settings the server does not hold yet', () => {
      const wanted = indexSettings('zh');
      const asServerReports = {
        ...wanted,
        filterableAttributes: ['id', 'updatedDay', 'day', 'author', 'model', 'year', 'source', 'kind', 'format'],
        typoTolerance: { ...wanted.typoTolerance, disableOnNumbers: false, disableOnWords: [] },
        displayedAttributes: ['*'],
        stopWords: [],
      };
      expect(settingsToUpdate(wanted, asServerReports)).to.deep.equal({});
      const reordered = { ...asServerReports, searchableAttributes: [...SEARCHABLE_ATTRIBUTES].reverse(), pagination: { maxTotalHits: 1000 } };
      expect(settingsToUpdate(wanted, reordered)).to.deep.equal({ searchableAttributes: wanted.searchableAttributes, pagination: wanted.pagination });
      expect(Object.keys(settingsToUpdate(wanted, {}))).to.have.members(Object.keys(wanted));
    });
  });

  describe('filters and sorting', () => {
    it('quotes filter values, escaping double quotes, and refuses backslashes, which Meilisearch cannot unescape', () => {
      expect(filterValue('svg')).to.equal('"svg"');
      expect(filterValue('say "hi"')).to.equal('"say \\"hi\\""');
      expect(filterValue("it's")).to.equal('"it\'s"');
      expect(() => filterValue('back\\slash')).to.throw(RangeError, /backslash/);
      expect(() => filterValue('\\"')).to.throw(RangeError);
    });

    it('joins the filters given with AND, in a fixed order, each list with IN, dates as day numbers', () => {
      expect(filterExpression({})).to.equal(undefined);
      expect(filterExpression({ year: ['2024'], format: ['svg', 'game'] })).to.equal('format IN ["svg", "game"] AND year IN ["2024"]');
      expect(filterExpression({ source: ['x" OR kind = "gallery'], kind: ['timeline'] })).to.equal('source IN ["x\\" OR kind = \\"gallery"] AND kind IN ["timeline"]');
      expect(filterExpression({ model: ['GPT-4o', 'a\\b'], author: ['a\\b'] })).to.equal('model IN ["GPT-4o"] AND author IN []');
      expect(filterExpression({ from: '1970-01-02', to: '2025-01-01', since: '2026-11-20' })).to.equal(`day >= 1 AND day <= ${dayNumber('2025-01-01')} AND updatedDay >= ${dayNumber('2026-11-20')}`);
      expect(filterExpression({ format: ['svg'], year: ['2024'] }, 'format')).to.equal('year IN ["2024"]');
    });

    it('continues after a position in date order: day, then id', () => {
      const day = dayNumber('2025-05-01');
      expect(afterExpression({ date: '2025-05-01', id: 'svg-a-1' }, 'newest')).to.equal(`(day < ${day} OR (day = ${day} AND id > "svg-a-1"))`);
      expect(afterExpression({ date: '2025-05-01', id: 'svg-a-1' }, 'oldest')).to.equal(`(day > ${day} OR (day = ${day} AND id < "svg-a-1"))`);
      expect(allOf([undefined, 'a = 1', undefined])).to.equal('a = 1');
      expect(allOf(['a = 1', 'b = 2'])).to.equal('(a = 1) AND (b = 2)');
    });

    it('sorts newest and oldest by date then id, and leaves relevance with text to the ranking rules', () => {
      expect(sortFor('newest', true)).to.deep.equal(['date:desc', 'id:asc']);
      expect(sortFor('oldest', false)).to.deep.equal(['date:asc', 'id:desc']);
      expect(sortFor('relevance', false)).to.deep.equal(['date:desc', 'id:asc']);
      expect(sortFor('relevance', true)).to.equal(undefined);
    });
  });

  describe('query text', () => {
    const texts = (text: string): string[] => queryTexts(parseSearchText(text));

    it('keeps words, so typos and the last-word prefix work; a text not ending in a word ends with a space (no prefix)', () => {
      expect(texts('Pelican  Bicycle')).to.deep.equal(['pelican bicycle']);
      expect(texts('Ｐｅｌｉｃａｎ')).to.deep.equal(['pelican']);
      expect(texts('pelican -bicycle')).to.deep.equal(['-bicycle pelican ']);
    });

    it('writes quotes and exclusions as Meilisearch operators, and nothing else the reader typed', () => {
      expect(texts('"*()')).to.deep.equal([]);
      expect(texts('-pelican "bicycle')).to.deep.equal(['-pelican "bicycle" ']);
      expect(texts('"a pelican" -"on a bicycle"')).to.deep.equal(['-"on a bicycle" "a pelican" ']);
      expect(texts('-pelican')).to.deep.equal(['-pelican ']);
    });

    it('quotes punctuation-joined words as a phrase, except at the end of the text', () => {
      expect(texts('gpt-4o pelican')).to.deep.equal(['"gpt 4o" pelican']);
      expect(texts('pelican gpt-4o')).to.deep.equal(['pelican gpt 4o']);
    });

    it('turns a Chinese run into a quoted phrase of bigram codes and a single character into its code', () => {
      expect(texts('鹈鹕')).to.deep.equal([`"${cjkCode('鹈鹕')}" `]);
      // A run with words of two characters or more is asked as those words (自行 of 自行车的): they find what the run does, and what the embedded engine's typo tier adds.
      expect(texts('自行车的')).to.deep.equal([`"${cjkCode('自行')}" `]);
      expect(texts('车的鹈')).to.deep.equal([`"${cjkCode('车的')} ${cjkCode('的鹈')}" `]);
      expect(texts('鹕')).to.deep.equal([`"${cjkCode('鹕')}"`]);
      expect(texts('gpt画的 xy')).to.deep.equal([`gpt "${cjkCode('画的')}" xy`]);
    });

    it('quotes a phrase across Chinese runs with the last character of each run it leaves and the first of each it enters', () => {
      const start = cjkRunStartCode;
      expect(texts('"亮起，光束"')).to.deep.equal([`"${cjkCode('亮起')} ${cjkCode('起')} ${start('光')} ${cjkCode('光束')}" `]);
      expect(texts('"亮起，光"'), 'a lone last character begins a run').to.deep.equal([`"${cjkCode('亮起')} ${cjkCode('起')} ${start('光')}" `]);
      expect(texts('"转 缓 停下"'), 'a lone character between two is a run of one').to.deep.equal([`"${cjkCode('转')} ${start('缓')} ${cjkCode('缓')} ${start('停')} ${cjkCode('停下')}" `]);
    });

    it('matches a last word as a prefix from two letters on, as the embedded engine does', () => {
      expect(texts('pelican p')).to.deep.equal(['pelican p ']);
      expect(texts('pelican pe')).to.deep.equal(['pelican pe']);
    });

    it('sends one text per OR combination', () => {
      expect(texts('a OR b cd')).to.deep.equal(['a cd', 'b cd']);
      expect(texts('a OR b c OR d -e')).to.deep.equal(['-e a c ', '-e a d ', '-e b c ', '-e b d ']);
      // A combination holding a run of several words asks its words.
      expect(texts('黄昏灯塔 OR 鹈鹕 xy')).to.deep.equal([`"${cjkCode('黄昏')}" "${cjkCode('灯塔')}" xy`, `"${cjkCode('鹈鹕')}" xy`]);
    });
  });

  describe('documents', () => {
    it('codes a CJK character as qx and four letters, a bigram as qx and eight', () => {
      expect(cjkCode('鹈')).to.match(/^qx[a-z]{4}$/);
      expect(cjkCode('鹈鹕')).to.equal(cjkCode('鹈') + cjkCode('鹕').slice(2));
      expect(cjkCode('𠀀')).to.match(/^qx[a-z]{4}$/);
      expect(new Set(['一', '丁', '鹈', '鹕'].map(cjkCode)).size).to.equal(4);
    });

    it('writes each CJK run as its start code, bigrams and last character, runs apart where a word parts them, and every character once', () => {
      const run = (...tokens: string[]): string => [cjkRunStartCode([...(tokens[0] ?? '')][0] ?? ''), ...tokens.map(cjkCode)].join(' ');
      expect(cjkRunStartCode('鹈')).to.match(/^qy[a-z]{4}$/);
      expect(cjkBigramText('骑车 GPT 鹈鹕飞')).to.equal(`${run('骑车', '车')}. ${run('鹈鹕', '鹕飞', '飞')}`);
      // Only punctuation or spaces between two runs: the codes follow each other, so a quoted phrase can cross.
      expect(cjkBigramText('亮起，光束 水')).to.equal(`${run('亮起', '起')} ${run('光束', '束')} ${run('水')}`);
      expect(cjkBigramText('只 a')).to.equal(run('只'));
      expect(cjkCharacterText(['鹈鹕', '鹕x只'])).to.equal([cjkCode('鹈'), cjkCode('鹕'), cjkCode('只')].join(' '));
    });

    it('maps a record to the document of one language, with facets and companion fields', () => {
      const record = makeRecord({ date: '2025-05-01', format: 'svg', title: { zh: '骑自行车的鹈鹕', en: 'A pelican' }, notes: { zh: '线条', en: 'Lines' }, prompt: 'draw' });
      // Searchable fields group texts of equal weight after a null, so no text starts at word position 0 (see SearchableText).
      const zh = toMeiliDocument(record, 'zh');
      expect(zh).to.include({ id: record.id, kind: record.kind, source: record.source, format: 'svg', year: '2025', date: '2025-05-01', model: record.model, author: record.author });
      expect(zh).to.deep.include({ title: [null, '骑自行车的鹈鹕'], meta: [null, record.model, record.author, record.promptCategory.replace(/-/g, ' ')], text: [null, '线条', 'draw', 'A pelican', 'Lines'] });
      expect(zh.titleCjk[1]?.split(' ')).to.deep.equal([cjkRunStartCode('骑'), ...['骑自', '自行', '行车', '车的', '的鹈', '鹈鹕', '鹕'].map(cjkCode)]);
      expect(zh.textCjk).to.deep.equal([null, [cjkRunStartCode('线'), ...['线条', '条'].map(cjkCode)].join(' '), '', '', '']);
      expect(zh).to.include({ day: dayNumber('2025-05-01'), updatedDay: dayNumber(record.updated) });
      const en = toMeiliDocument(record, 'en');
      expect(en).to.deep.include({ title: [null, 'A pelican'], titleCjk: [null, ''], text: [null, 'Lines', 'draw', '骑自行车的鹈鹕', '线条'] });
      expect(en.textCjk[3]).to.equal(zh.titleCjk[1]);
      expect(toMeiliDocument({ ...record, prompt: undefined }, 'en').text[2]).to.equal('');
    });
  });

  describe('resuming a relevance walk', () => {
    const hit = (id: string, date: string, score: number, part = 0) => ({ id, date, score, part });
    const window = [hit('a', '2025-01-02', 0.9), hit('b', '2025-01-01', 0.9), hit('c', '2025-01-01', 0.9), hit('d', '2026-01-01', 0.5)];

    it('continues after the position when the window holds its record', () => {
      expect(resumeAt(window, 100, 4, { date: '2025-01-01', id: 'b', rank: [90, 0.9, 0] })).to.equal(102);
    });

    it('continues at the first record after the position when its record is gone', () => {
      expect(resumeAt(window, 100, 4, { date: '2025-01-01', id: 'bb', rank: [90, 0.9, 0] })).to.equal(102);
      expect(resumeAt(window, 100, 4, { date: '2030-01-01', id: 'x', rank: [90, 0.7, 0] })).to.equal(103);
      expect(resumeAt(window, 0, 4, { date: '2030-01-01', id: 'x', rank: [90, 1, 1] })).to.equal(0);
      expect(resumeAt(window, 100, 10, { date: '2020-01-01', id: 'x', rank: [90, 0.1, 0] }), 'the list ends in the window').to.equal(104);
    });

    it('cannot tell when the position lies outside the window or carries no score', () => {
      expect(resumeAt(window, 100, 4, { date: '2030-01-01', id: 'x', rank: [90, 1, 0] })).to.equal(undefined);
      expect(resumeAt(window, 100, 4, { date: '2020-01-01', id: 'x', rank: [90, 0.1, 0] })).to.equal(undefined);
      expect(resumeAt(window, 100, 4, { date: '2025-01-01', id: 'bb', rank: [90] })).to.equal(undefined);
    });
  });

  describe('page window', () => {
    it('finds the smallest page holding the wanted hits whole', () => {
      expect(pageWindow(0, 20)).to.deep.equal({ page: 1, hitsPerPage: 20, skip: 0 });
      expect(pageWindow(40, 20)).to.deep.equal({ page: 3, hitsPerPage: 20, skip: 0 });
      expect(pageWindow(7, 4)).to.deep.equal({ page: 2, hitsPerPage: 6, skip: 1 });
      expect(pageWindow(10000, 50)).to.deep.equal({ page: 201, hitsPerPage: 50, skip: 0 });
      expect(() => pageWindow(0, 0)).to.throw(RangeError);
      expect(() => pageWindow(-1, 5)).to.throw(RangeError);
    });

    it('never asks for more than twice the largest limit, and never past maxTotalHits', () => {
      for (const limit of [1, 2, 7, 20, 49, 50]) {
        for (let offset = 0; offset <= 10000; offset += 1) {
          const { page, hitsPerPage, skip } = pageWindow(offset, limit);
          expect((page - 1) * hitsPerPage + skip).to.equal(offset);
          expect(skip + limit).to.be.at.most(hitsPerPage);
          expect(hitsPerPage).to.be.below(2 * SCHEMAS.searchParams.properties.limit.maximum);
          expect(offset + limit).to.be.at.most(MAX_TOTAL_HITS);
        }
      }
    });
  });

  describe('tasks', () => {
    const enqueued: EnqueuedTask = { taskUid: 7, indexUid: 'specimens_zh', status: 'enqueued', type: 'indexCreation', enqueuedAt: '2026-01-01T00:00:00Z' };
    function finished(status: Task['status'], error: Task['error'] = null): EnqueuedTaskPromise {
      const { taskUid: _uid, ...rest } = enqueued;
      const task: Task = { ...rest, uid: 7, batchUid: 1, canceledBy: null, error, duration: 'PT0.1S', startedAt: null, finishedAt: null, status };
      return Object.assign(Promise.resolve(enqueued), { waitTask: async () => task });
    }
    const exists = { message: 'Index `specimens_zh` already exists.', code: 'index_already_exists', type: 'invalid_request', link: 'https://docs.meilisearch.com/errors#index_already_exists' };

    it('returns a succeeded task and throws Meilisearch’s own error for a failed one', async () => {
      expect((await settle(finished('succeeded'))).status).to.equal('succeeded');
      const failure = await settle(finished('failed', exists)).catch((error: unknown) => error);
      expect(failure).to.be.instanceOf(MeiliTaskError);
      expect((failure as MeiliTaskError).code).to.equal('index_already_exists');
      expect((failure as MeiliTaskError).message).to.equal('Meilisearch task 7 (indexCreation on specimens_zh) failed: Index `specimens_zh` already exists. [index_already_exists]');
      expect(await settle(finished('canceled')).catch((error: unknown) => error)).to.be.instanceOf(MeiliTaskError);
    });

    it('counts a failure with an accepted code as done, and no other', async () => {
      await settleUnless(finished('failed', exists), ['index_already_exists']);
      const other = await settleUnless(finished('failed', { ...exists, code: 'index_not_found' }), ['index_already_exists']).catch((error: unknown) => error);
      expect(other).to.be.instanceOf(MeiliTaskError);
    });
  });
});
