import { expect } from 'chai';
import { startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';
import { chineseMessage } from '../../src/web/parameter-notice.ts';
import { makeRecord } from '../helpers/factories.ts';

/** The text of a page's notice (role="alert"), entities decoded. */
function noticeOf(html: string): string {
  const notice = /<p class="notice" role="alert">(.*?)<\/p>/s.exec(html)?.[1] ?? '';
  return notice.replace(/<[^>]+>/g, '').replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>');
}

/** Words of the English messages (values a message lists, such as svg, are not among them). */
const ENGLISH_WORDS = /\b(must|be|is|are|not|one|of|at|least|most|characters|long|hold|entries|entry|year|digits|date|written|blank|before|quote|never|closed|makes|more|than|combinations|alternatives|given|once|repeated|known|invalid|cursor this|belongs|another|combined)\b/i;

describe('website search notices', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ demo: true });
  });
  after(async () => {
    await server.close();
  });

  /** Every kind of bad search value a list page can be given, with what the Chinese page says of it. */
  const CASES: { query: string; scope?: 'timeline'; chinese: string }[] = [
    // A value the page has a label for is named by it, the value to write after it.
    { query: 'format=bogus', chinese: '格式（format）：只能是以下之一：SVG（svg）、动画（animation）、三维（3d）、游戏（game）、视频（video）。' },
    { query: 'kind=gallery', scope: 'timeline', chinese: '类型（kind）：只能是以下之一：时间线（timeline）。' },
    { query: 'year=20x5', chinese: '年份（year）：须为四位数字的年份，例如 2025' },
    { query: `year=${Array.from({ length: 21 }, (_, i) => 2000 + i).join(',')}`, chinese: '年份（year）：最多 20 个值' },
    { query: `q=${'x'.repeat(201)}`, chinese: '搜索词（q）：最多 200 个字符' },
    { query: `model=${'m'.repeat(201)}`, chinese: '模型（model）：最多 200 个字符' },
    { query: 'author=%22unclosed', chinese: '作者（author）：有一个双引号没有闭合' },
    // A label cleaning leaves blank (a zero-width space) filtered on nothing and titled the page with an empty label.
    { query: 'model=%E2%80%8B', chinese: '模型（model）：不能为空' },
    { query: 'source=nowhere', chinese: '来源（source）：只能是本馆的来源之一：' },
    { query: 'source=nowhere', chinese: '（“nowhere” 不是）。' },
    { query: `q=${encodeURIComponent('a OR b c OR d e OR f g OR h i OR j')}`, chinese: '搜索词（q）：OR 组合超过 16 种' },
    { query: `q=${encodeURIComponent('⒜'.repeat(70))}`, chinese: '搜索词（q）：按检索时的规范形式（NFKC）计，最多 200 个字符（现为 210 个' },
    { query: `q=${encodeURIComponent(Array(65).fill('a').join(' '))}`, chinese: '搜索词（q）：最多 64 个词（现有 65 个；一段连续的汉字算一个）' },
    { query: `q=${Array(33).fill('a').join('-')}`, chinese: '搜索词（q）：短语（引号中的词，或像 a-b-c 这样由标点连起来的词）合计最多 32 个词（现有 33 个）' },
    // Written YYYY-MM-DD but no day: said to be no day, not to be written so (a verification pass).
    { query: 'from=2025-02-30', chinese: '起始日期（from）：须为实际存在的日期（2025-02-30 格式无误，但没有这一天），例如 2025-05-01' },
    { query: 'from=2025-2-3', chinese: '起始日期（from）：须为 YYYY-MM-DD 格式的日期，例如 2025-05-01' },
    { query: 'from=2025-03-01&to=2025-01-01', chinese: '截止日期（to）：不能早于起始日期 from（2025-03-01）' },
    { query: 'sort=random', chinese: '排序（sort）：只能是以下之一：相关度（relevance）、最新在前（newest）、最早在前（oldest）。' },
    { query: 'page=abc', chinese: '页码（page）：须为从 1 开始的整数。' },
    { query: 'page=0', chinese: '页码（page）：须为从 1 开始的整数' },
    { query: 'page=-1', chinese: '页码（page）：须为从 1 开始的整数' },
    { query: 'page=1.5', scope: 'timeline', chinese: '页码（page）：须为从 1 开始的整数' },
    { query: 'limit=5', chinese: 'limit：网页不接受这个参数' },
    { query: 'since=2025-01-01', chinese: 'since：网页不接受这个参数' },
    { query: 'lang=en', scope: 'timeline', chinese: 'lang：网页不接受这个参数' },
  ];

  for (const { query, scope, chinese } of CASES) {
    it(`says what is wrong with ${query.slice(0, 40)} in the page's language, and shows no count of a search that did not run`, async () => {
      const path = scope === 'timeline' ? '/timeline/' : '/';
      const zh = await server.get(`${path}?${query}`);
      expect(zh.status).to.equal(400);
      const zhHtml = await zh.text();
      const zhNotice = noticeOf(zhHtml);
      expect(zhNotice).to.include('搜索条件无效：').and.include(chinese);
      // The parameter's name, in brackets after what the page calls it, is the one English a notice keeps.
      const withoutNames = zhNotice.replace(/（[a-z]+）/g, '');
      expect(withoutNames).not.to.match(ENGLISH_WORDS);
      expect(withoutNames).not.to.match(/[A-Za-z]{2,} [A-Za-z]{2,}/);
      expect(zhHtml).not.to.include('共 0 件').and.not.include('没有找到匹配的作品');

      const en = await server.get(`/en${path}?${query}`);
      expect(en.status).to.equal(400);
      const enHtml = await en.text();
      expect(noticeOf(enHtml)).to.match(/^The search could not be run: [a-z]+: (must|has|holds|makes|is not taken) /);
      expect(enHtml).not.to.include('0 works').and.not.include('No works match');
    });
  }

  it('names a parameter that breaks several rules once, saying each of its problems in the page\'s language', async () => {
    const query = `q=${encodeURIComponent('⒜'.repeat(67))}`;
    const zh = noticeOf(await (await server.get(`/?${query}`)).text());
    expect(zh.split('搜索词（q）')).to.have.length(2);
    expect(zh).to.include(
      '搜索词（q）：按检索时的规范形式（NFKC）计，最多 200 个字符（现为 201 个：⒜、㍿ 这样的一个字符代表几个字符）；另外最多 64 个词（现有 67 个；一段连续的汉字算一个）；另外短语（引号中的词，或像 a-b-c 这样由标点连起来的词）合计最多 32 个词（现有 67 个）',
    );
    expect(zh.replace(/（[a-z]+）/g, '')).not.to.match(ENGLISH_WORDS);
    const en = noticeOf(await (await server.get(`/en/?${query}`)).text());
    expect(en.split('q: ')).to.have.length(2);
    expect(en).to.match(/^The search could not be run: q: must be at most 200 characters long as searched, .*; also holds more than 64 words .*; also holds more than 32 words in phrases, /);
    // A joined message no rule knows a part of says that part is invalid, once.
    expect(chineseMessage('must be one of: svg, game; also must match format "email"; also must match format "uri"', 'format')).to.equal('只能是以下之一：SVG（svg）、游戏（game）；另外值无效');
  });

  it('titles a search whose text cleaning leaves blank as the whole list, not as an empty quotation', async () => {
    const html = await (await server.get('/?q=%E2%80%8B%20%E2%80%8B')).text();
    const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
    expect(title).to.not.include('“').and.to.not.include('”');
  });

  it('applies a date range and an order from the address, shows them with a way out and keeps them in the form', async () => {
    await server.backend.store.putRecords([
      makeRecord({ date: '2024-06-01', title: { zh: '桑给巴尔早', en: 'Zanzibar early' } }),
      makeRecord({ date: '2025-02-01', title: { zh: '桑给巴尔中', en: 'Zanzibar middle' } }),
      makeRecord({ date: '2025-08-01', title: { zh: '桑给巴尔晚', en: 'Zanzibar late' } }),
    ]);
    await server.syncSearch();
    const ranged = await server.get('/en/?q=zanzibar&from=2025-01-01&to=2025-03-01');
    expect(ranged.status).to.equal(200);
    const html = await ranged.text();
    expect(html).to.include('Zanzibar middle').and.include('1 work').and.not.include('Zanzibar early').and.not.include('Zanzibar late');
    expect(html).to.include('Date of the work: 2025-01-01 to 2025-03-01').and.include('<a href="/en/?q=zanzibar"><span class="visually-hidden">Remove the filter Date of the work: 2025-01-01 to 2025-03-01</span>');
    expect(html).to.include('<input type="hidden" name="from" value="2025-01-01"/>').and.include('<input type="hidden" name="to" value="2025-03-01"/>');
    expect(await (await server.get('/?q=zanzibar&from=2025-01-01')).text()).to.include('作品日期：2025-01-01 起').and.include('桑给巴尔晚').and.not.include('桑给巴尔早');

    const order = async (sort: string): Promise<string[]> => [...(await (await server.get(`/en/?q=zanzibar&sort=${sort}`)).text()).matchAll(/Zanzibar (early|middle|late)/g)].map((match) => match[1] ?? '');
    expect([...new Set(await order('oldest'))]).to.deep.equal(['early', 'middle', 'late']);
    expect([...new Set(await order('newest'))]).to.deep.equal(['late', 'middle', 'early']);
    const sorted = await (await server.get('/en/?q=zanzibar&sort=oldest')).text();
    expect(sorted).to.include('Order: oldest first').and.include('<input type="hidden" name="sort" value="oldest"/>');
  });

  it('reads a page number from 1 and ignores parameters of no concern to it', async () => {
    expect((await server.get('/en/?page=1')).status).to.equal(200);
    expect((await server.get('/en/?page=01')).status).to.equal(200);
    expect((await server.get('/en/?page=')).status).to.equal(200);
    expect((await server.get('/en/?utm_source=newsletter&fbclid=abc')).status).to.equal(200);
    expect((await server.get(`/en/?page=${'9'.repeat(30)}`)).status).to.equal(404);
  });

  it('says in Chinese every kind of message validation makes, and something rather than English for one it does not know', () => {
    const english = [
      'must be one of: svg, game',
      "must be one of: x, github (the archive's sources; \"a\", \"b\" are not)",
      'must be a year of four digits, e.g. 2025',
      'must be a date written YYYY-MM-DD, e.g. 2025-05-01',
      'must not be blank',
      'must be at least 1 characters long',
      'must be at most 200 characters long',
      'must hold at most 20 entries',
      'must hold at least 1 entry',
      'must be <= 10000',
      'must be >= 1',
      'must not be before from (2025-03-01)',
      'has a double quote that is never closed',
      'makes more than 16 combinations of OR alternatives',
      'must be at most 200 characters long as searched, in Unicode normal form NFKC (it is 210: a character such as ⒜ or ㍿ stands for several)',
      'holds more than 64 words (it holds 65; a run of Chinese characters counts as one)',
      'holds more than 32 words in phrases, quoted or joined by punctuation like a-b-c (it holds 33)',
      'must be given once, not repeated (several values go in one, comma-separated: format=svg,game)',
      'must be given once, not repeated (several values go in one, comma-separated), and "foo", "bar" are not valid values',
      'must be given once, not repeated (several values go in one, comma-separated)',
      'must be a date on a day that exists (2025-02-30 is written YYYY-MM-DD, but there is no such day), e.g. 2025-05-01',
      'is not a known parameter; known: q, format',
      'is not a known parameter (did you mean limit?); known: q, format',
      'is not a known parameter (did you mean limit?)',
      'is not a cursor this service gives out now: pass the next value of a page unchanged, or start again from the first page',
      'belongs to another query: keep q, lang, sort and the filters of the page that gave it',
      'cannot be combined with cursor, not even 0: a cursor continues where its page ended; leave offset out',
      "is not taken by the website's pages (they set it themselves or do not offer it); the API takes it at /api/v1/specimens",
      'must be a page number: a whole number from 1',
      'must match format "email"',
    ];
    for (const message of english) {
      const chinese = chineseMessage(message);
      expect(chinese, message).not.to.match(ENGLISH_WORDS);
      expect(chinese, message).not.to.match(/[A-Za-z]{2,} [A-Za-z]{2,}/);
    }
    expect(chineseMessage('must match format "email"')).to.equal('值无效');
    // A repeated list names the values that are not valid, and a date written YYYY-MM-DD that is no day says so (a verification pass).
    expect(chineseMessage('must be given once, not repeated (several values go in one, comma-separated), and "foo", "bar" are not valid values; also must be one of: svg, game', 'format')).to.equal(
      '只能出现一次，不能重复（多个值用逗号分隔，写在一个参数里）；其中 “foo”、“bar” 不是有效的值；另外只能是以下之一：SVG（svg）、游戏（game）',
    );
    expect(chineseMessage('must be a date on a day that exists (2025-02-30 is written YYYY-MM-DD, but there is no such day), e.g. 2025-05-01')).to.equal('须为实际存在的日期（2025-02-30 格式无误，但没有这一天），例如 2025-05-01');
    expect(chineseMessage('is not a known parameter (did you mean limit?)')).to.equal('不是可用的参数（可能是指 limit）');
    // The cursor's message as read-params.ts words it now has its own rule, not the fallback.
    expect(chineseMessage('is not a cursor this service gives out now: pass the next value of a page unchanged, or start again from the first page')).to.equal('不是本馆现在给出的游标：请原样传回上一页的 next，或从第一页重新开始');
  });
});
