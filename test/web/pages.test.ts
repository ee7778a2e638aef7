import { expect } from 'chai';
import { withdrawRecords } from '../../src/domain/withdrawal.ts';
import { makeRecord } from '../helpers/factories.ts';
import { startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';

describe('what the website pages say (served HTML)', () => {
  let server: TestServer;
  const withdrawn = makeRecord({ title: { zh: '被撤回的鹈鹕', en: 'The withdrawn pelican' }, sourceUrl: 'https://github.com/demo-owner/withdrawn-pelican' });
  const sourceDeleted = makeRecord({ mediaStatus: 'deleted-source', sourceUrl: 'https://github.com/demo-owner/deleted-since' });
  const sourceLive = makeRecord({ mediaStatus: 'text', sourceUrl: 'https://github.com/demo-owner/still-there' });
  const pelicanCategory = makeRecord({ promptCategory: 'pelican-bicycle' });
  const ownCategory = makeRecord({ promptCategory: 'kinetic_type-poster' });
  const milestone = makeRecord({ kind: 'timeline', model: 'Milestone-Model' });
  const previewed = makeRecord({ model: 'Card-Model', mediaStatus: 'local-media', media: [{ path: 'ab/preview.png', width: 800, height: 600, sha256: 'a'.repeat(64), thumbnailPath: 'ab/preview.webp' }] });
  const prompted = makeRecord({ prompt: 'Dessine un pélican à vélo', author: 'Zoë Durand' });
  const chineseAuthor = makeRecord({ author: '张伟' });
  const latinAuthor = makeRecord({ author: '@latin_author' });
  // More than a page (24) of one model's works, so its list has a page 2.
  const pageAndAHalf = Array.from({ length: 30 }, (_, index) => makeRecord({ model: 'GPT-5', date: '2025-05-01', format: index % 2 ? 'svg' : 'game' }));

  before(async () => {
    server = await startTestServer({ records: [withdrawn, sourceDeleted, sourceLive, pelicanCategory, ownCategory, milestone, prompted, chineseAuthor, latinAuthor, previewed, ...pageAndAHalf] });
  });
  after(async () => {
    await server.close();
  });

  const page = async (path: string): Promise<{ status: number; html: string }> => {
    const response = await server.get(path);
    return { status: response.status, html: await response.text() };
  };
  const titleOf = async (path: string): Promise<string | undefined> => /<title>([^<]*)<\/title>/.exec((await page(path)).html)?.[1];

  /** How many works the API finds for a query: the count a list page's title says. */
  const count = async (query: string): Promise<number> => ((await (await server.get(`/api/v1/specimens?lang=en&limit=1&${query}`)).json()) as { total: number }).total;

  const descriptionOf = async (path: string): Promise<string | undefined> => /<meta name="description" content="([^"]*)"\/>/.exec((await page(path)).html)?.[1];

  it('describes each list page and the developers page with what it holds, in the page\'s language', async () => {
    const { total } = (await (await server.get('/api/v1/specimens?lang=en&limit=1')).json()) as { total: number };
    expect(await descriptionOf('/en/')).to.equal(`A source-attributed archive of works made by AI models: SVGs, animations, 3D, games and videos. ${total} works, each with its original source, model and date.`);
    expect(await descriptionOf('/')).to.equal(`注明来源的 AI 模型作品档案：SVG、动画、三维、游戏与视频。共 ${total} 件，每件注明原始来源、模型与日期。`);
    expect(await descriptionOf('/en/?model=GPT-5&format=svg')).to.equal('Works in the archive matching SVG, GPT-5. 15 works, each with its original source, model and date.');
    expect(await descriptionOf('/?model=GPT-5&page=2')).to.equal('档案馆中符合 GPT-5 的作品。共 30 件，每件注明原始来源、模型与日期。');
    expect(await descriptionOf('/en/timeline/')).to.equal('Milestones of model history, in the order they happened. 1 work, each with its original source, model and date.');
    expect(await descriptionOf('/timeline/?year=2024')).to.equal('符合 2024 的模型史里程碑。共 0 件，每件注明原始来源、模型与日期。');
    // No search ran: no count.
    expect(await descriptionOf('/en/?format=bogus')).to.equal('A source-attributed archive of works made by AI models: SVGs, animations, 3D, games and videos.');
    expect(await descriptionOf('/en/developers/')).to.match(/^How programs read the archive: the HTTP API/);
    expect(await descriptionOf('/developers/')).to.match(/^程序如何读取档案馆：HTTP 接口/);
  });

  it('titles a list page with what it shows, how many works match, and which page it is, in the page\'s language', async () => {
    expect(await count('model=GPT-5')).to.equal(30);
    expect(await titleOf('/en/?model=GPT-5&page=2')).to.equal('GPT-5 · 30 works · Gallery · Page 2 · Model Works Archive');
    expect(await titleOf('/?model=GPT-5&page=2')).to.equal('GPT-5 · 共 30 件 · 藏品 · 第 2 页 · 模型作品档案馆');
    expect(await titleOf('/en/?page=2')).to.equal('Gallery · Page 2 · Model Works Archive');
    expect(await titleOf('/?year=2025')).to.equal(`2025 · 共 ${await count('year=2025')} 件 · 藏品 · 模型作品档案馆`);
    expect(await titleOf('/en/?kind=timeline')).to.equal('Timeline · 1 work · Gallery · Model Works Archive');
    expect(await titleOf('/en/?q=pelican&format=svg,game&source=github&from=2025-01-01')).to.equal(`&quot;pelican&quot; · SVG + Game · GitHub · from 2025-01-01 · ${await count('q=pelican&format=svg,game&source=github&from=2025-01-01')} works · Gallery · Model Works Archive`);
    expect(await titleOf('/timeline/?format=3d')).to.equal('三维 · 共 0 件 · 时间线 · 模型作品档案馆');
    // Typed text is shown as stored text is: a right-to-left override would turn the tab's title around.
    expect(await titleOf(`/en/?q=${encodeURIComponent('pel\u202eican')}&author=${encodeURIComponent('\u202eMira')}`)).to.equal('&quot;pelican&quot; · Mira · 0 works · Gallery · Model Works Archive');
    // The whole list's first page keeps the plain names.
    expect(await titleOf('/en/')).to.equal('Model Works Archive');
    expect(await titleOf('/en/timeline/')).to.equal('Timeline · Model Works Archive');
    // A search that could not run (400) still names its list, in the gallery as in the timeline.
    expect(await titleOf('/en/?format=bogus')).to.equal('Gallery · Model Works Archive');
    expect(await titleOf('/?page=0')).to.equal('藏品 · 模型作品档案馆');
    expect(await titleOf('/en/timeline/?format=bogus')).to.equal('Timeline · Model Works Archive');
  });

  it('names a withdrawn work in the page\'s language, and gives the reason as written, marked as of no known language', async () => {
    const reason = 'The author asked for the work to be taken down.';
    const result = await withdrawRecords(server.backend.store, { ids: [withdrawn.id], reason, wholeWork: true, followMoves: false });
    expect(result.kind).to.equal('withdrawn');
    const en = await page(`/en/specimens/${withdrawn.id}/`);
    expect(en.status).to.equal(410);
    expect(en.html).to.include('The work: <cite>The withdrawn pelican</cite>').and.not.include('被撤回的鹈鹕');
    // lang with an empty value (written bare) says the language is unknown.
    expect(en.html).to.include(`Reason given (as written): <span class="withdrawal-reason" lang>${reason}</span>`);
    const zh = await page(`/specimens/${withdrawn.id}/`);
    expect(zh.status).to.equal(410);
    expect(zh.html).to.include('作品：<cite>《被撤回的鹈鹕》</cite>').and.not.include('The withdrawn pelican');
    expect(zh.html).to.include(`撤回理由（原文）：<span class="withdrawal-reason" lang>${reason}</span>`);
    expect(zh.html).to.include(`<a href="${withdrawn.sourceUrl}" rel="nofollow noopener">`);
  });

  it('says beside the source link that a deleted source is no longer available, in both languages', async () => {
    const en = await page(`/en/specimens/${sourceDeleted.id}/`);
    expect(en.html).to.include(`<p class="source-link"><a href="${sourceDeleted.sourceUrl}" rel="noopener noreferrer external">Original source<span aria-hidden="true"> ↗</span></a><span class="source-gone"> (no longer available: deleted at the source)</span></p>`);
    const zh = await page(`/specimens/${sourceDeleted.id}/`);
    expect(zh.html).to.include(`<p class="source-link"><a href="${sourceDeleted.sourceUrl}" rel="noopener noreferrer external">原始来源<span aria-hidden="true"> ↗</span></a><span class="source-gone">（已无法访问：来源已被删除）</span></p>`);
    for (const path of [`/en/specimens/${sourceLive.id}/`, `/specimens/${sourceLive.id}/`]) expect((await page(path)).html, path).to.not.include('source-gone');
  });

  it('names a prompt category in the page\'s language on record pages and their Markdown twins; the API keeps the slug', async () => {
    const fact = (html: string, label: string): string | undefined => new RegExp(`<dt>${label}</dt><dd>([^<]*)</dd>`).exec(html)?.[1];
    expect(fact((await page(`/en/specimens/${pelicanCategory.id}/`)).html, 'Prompt category')).to.equal('Pelican riding a bicycle');
    expect(fact((await page(`/specimens/${pelicanCategory.id}/`)).html, '提示类别')).to.equal('骑自行车的鹈鹕');
    expect((await page(`/en/specimens/${pelicanCategory.id}/index.md`)).html).to.include('- Prompt category: Pelican riding a bicycle\n');
    expect((await page(`/specimens/${pelicanCategory.id}/index.md`)).html).to.include('骑自行车的鹈鹕\n');
    // A category no table knows is read as words.
    expect(fact((await page(`/en/specimens/${ownCategory.id}/`)).html, 'Prompt category')).to.equal('kinetic type poster');
    expect((await page(`/specimens/${ownCategory.id}/index.md`)).html).to.include('kinetic type poster\n').and.not.include('kinetic_type');
    const api = (await (await server.get(`/api/v1/specimens/${pelicanCategory.id}?lang=en`)).json()) as { promptCategory: string };
    expect(api.promptCategory).to.equal('pelican-bicycle');
  });

  it('reads a blank search as no search: the plain list, its title, its canonical address and its page links', async () => {
    for (const query of ['q=%20%20', 'q=', 'q=%20&format=&model=%20&utm_source=newsletter']) {
      const { status, html } = await page(`/en/?${query}`);
      expect(status, query).to.equal(200);
      expect(html, query).to.include('<title>Model Works Archive</title>');
      expect(html, query).to.include(`<link rel="canonical" href="${server.baseUrl}/en/"/>`);
      expect(html, query).to.include('<a rel="next" href="/en/?page=2">').and.include('<input id="q" type="search" name="q" value placeholder=');
    }
    expect(await titleOf('/timeline/?q=%E3%80%80%20')).to.equal('时间线 · 模型作品档案馆');
    // Spaces around words are no part of the search.
    expect(await titleOf('/en/?q=%20pelican%20')).to.equal(`&quot;pelican&quot; · ${await count('q=pelican')} works · Gallery · Model Works Archive`);
    // A search, or a page past the first, is not the plain list: no canonical address.
    for (const path of ['/en/?q=pelican', '/en/?page=2']) expect((await page(path)).html, path).to.not.include('rel="canonical"');
  });

  it('marks the navigation link of the page read aria-current="page", and on a record page its section\'s link "true"', async () => {
    const currentLinks = async (path: string): Promise<string[]> => {
      const nav = /<nav aria-label="(?:Main|主导航)">(.*?)<\/nav>/s.exec((await page(path)).html)?.[1] ?? '';
      return [...nav.matchAll(/<a href="([^"]+)" aria-current="([^"]+)"/g)].map((match) => `${match[1]} ${match[2]}`);
    };
    expect(await currentLinks('/en/')).to.deep.equal(['/en/ page']);
    expect(await currentLinks('/en/?q=pelican&page=1')).to.deep.equal(['/en/ page']);
    expect(await currentLinks('/timeline/')).to.deep.equal(['/timeline/ page']);
    expect(await currentLinks('/en/developers/')).to.deep.equal(['/en/developers/ page']);
    // A record page is inside its list's section, not that list's page.
    expect(await currentLinks(`/en/specimens/${sourceLive.id}/`)).to.deep.equal(['/en/ true']);
    expect(await currentLinks(`/specimens/${milestone.id}/`)).to.deep.equal(['/timeline/ true']);
  });

  it('punctuates Chinese pages full-width (labels, counts, notices, the Markdown twin) and leaves English as it was', async () => {
    const zhList = (await page('/?model=GPT-5')).html;
    expect(zhList).to.include('<li>模型：GPT-5 <a href="/"><span class="visually-hidden">去掉筛选“模型：GPT-5”</span><span aria-hidden="true">✕</span></a>');
    expect(zhList).to.match(/>GitHub（\d+）<\/option>/).and.include('>X（推特，0）</option>');
    const enList = (await page('/en/?model=GPT-5')).html;
    expect(enList).to.include('<li>Model: GPT-5 <a href="/en/"><span class="visually-hidden">Remove the filter Model: GPT-5</span><span aria-hidden="true">✕</span></a>');
    expect(enList).to.match(/>GitHub \(\d+\)<\/option>/).and.include('>X (Twitter, 0)</option>');
    expect((await page('/?page=999')).html).to.include('这一页超出了列表的末尾（共 2 页）。<a href="/?page=2">去第 2 页</a>');
    expect((await page('/en/?page=999')).html).to.include('This page is past the end of the list (2 pages). <a href="/en/?page=2">Go to page 2</a>');
    const zhMarkdown = (await page(`/specimens/${sourceLive.id}/index.md`)).html;
    expect(zhMarkdown).to.include(`- 模型：${sourceLive.model}\n`).and.include(`- id：\`${sourceLive.id}\`\n`);
    expect((await page(`/en/specimens/${sourceLive.id}/index.md`)).html).to.include(`- Model: ${sourceLive.model}\n`).and.include(`- id: \`${sourceLive.id}\`\n`);
    // No ASCII colon after Chinese, and no space after full-width punctuation before the next element, on any Chinese page.
    for (const path of ['/', '/?model=GPT-5&from=2025-01-01&sort=oldest', '/?page=999', `/specimens/${sourceLive.id}/`, '/developers/']) {
      const visible = (await page(path)).html.replace(/<script[\s\S]*?<\/script>/g, '');
      expect(visible, path).to.not.match(/\p{Script=Han}: /u).and.not.match(/[。：；）] </);
    }
  });

  it('marks the prompt, and an author whose letters show no language, written as their source gives them, as of no known language', async () => {
    for (const path of [`/en/specimens/${prompted.id}/`, `/specimens/${prompted.id}/`]) {
      const { html } = await page(path);
      expect(html, path).to.include('<blockquote lang>Dessine un pélican à vélo</blockquote>');
      expect(html, path).to.match(/<a href="[^"]*\?author=[^"]*"><span lang>Zoë Durand<\/span><\/a>/);
    }
    // The page's own words around them keep the page's language.
    expect((await page(`/specimens/${prompted.id}/`)).html).to.include('<html lang="zh-Hans">');
    expect((await page('/?author=Zo%C3%AB%20Durand')).html).to.include('<li>作者：<span lang>Zoë Durand</span> <a href="/"><span class="visually-hidden">去掉筛选“作者：<span lang>Zoë Durand</span>”</span>');
  });

  it('marks an author\'s name written in Han characters as Chinese, and one in plain Latin letters as English, in the facts, the citation and the filter chips', async () => {
    const en = (await page(`/en/specimens/${chineseAuthor.id}/`)).html;
    expect(en).to.match(/<dd><a href="[^"]*\?author=[^"]*"><span lang="zh-Hans">张伟<\/span><\/a><\/dd>/);
    expect(en).to.include(`<p id="citation-text">&quot;${chineseAuthor.title.en}&quot;, <span lang="zh-Hans">张伟</span>, ${chineseAuthor.date}, `);
    const zh = (await page(`/specimens/${latinAuthor.id}/`)).html;
    expect(zh).to.match(/<dd><a href="[^"]*\?author=[^"]*"><span lang="en">@latin_author<\/span><\/a><\/dd>/);
    expect(zh).to.include(`<p id="citation-text">《${latinAuthor.title.zh}》，<span lang="en">@latin_author</span>，`);
    // The chip and the name of its ✕ mark each author apart.
    const chips = (await page(`/en/?author=${encodeURIComponent('张伟,@latin_author')}`)).html;
    expect(chips).to.include('<li>Author: <span lang="zh-Hans">张伟</span> + <span lang="en">@latin_author</span> <a href=');
    expect(chips).to.include('<span class="visually-hidden">Remove the filter Author: <span lang="zh-Hans">张伟</span> + <span lang="en">@latin_author</span></span>');
  });

  it('keeps unmarked lists lists (role="list", which Safari needs) and the source link\'s arrow out of its name', async () => {
    for (const path of ['/en/?model=GPT-5', '/timeline/?model=Milestone-Model']) {
      const { html } = await page(path);
      expect(html, path).to.match(/<ol class="grid[^"]*" role="list">/).and.include('<ul class="active-filters" role="list">');
    }
    expect((await page(`/en/specimens/${sourceLive.id}/`)).html).to.include('>Original source<span aria-hidden="true"> ↗</span></a>');
    expect((await page(`/specimens/${sourceLive.id}/`)).html).to.include('>原始来源<span aria-hidden="true"> ↗</span></a>');
  });

  it('sizes a card\'s image as the thumbnail it shows, and a record page\'s as the preview', async () => {
    const card = /<li class="card">.*?<img ([^>]*)>/s.exec((await page('/en/?model=Card-Model')).html)?.[1] ?? '';
    expect(card).to.include('preview.webp').and.include('width="480" height="360"');
    expect((await page(`/en/specimens/${previewed.id}/`)).html).to.match(/<img src="[^"]*preview\.png" [^>]*width="800" height="600"/);
  });
});
