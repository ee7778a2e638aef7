import { expect } from 'chai';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openPage } from '../helpers/chromium.ts';
import type { OpenOptions } from '../helpers/chromium.ts';
import { withdrawRecords } from '../../src/domain/withdrawal.ts';
import { makeRecord } from '../helpers/factories.ts';
import { startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';

describe('the website in headless Chromium', function () {
  this.timeout(60_000);
  let server: TestServer;
  let browser: Browser;
  const consoleErrors: string[] = [];
  // Unbroken text as real records hold it: a prompt quoting an image's address, a title naming a
  // file, an author's long handle, and a source address of many segments.
  const longAddress = 'https://raw.githubusercontent.com/some-long-account-name/some-long-repository-name/refs/heads/main/images/pelican_riding_a_bicycle_v2_final.png';
  const unbroken = makeRecord({
    date: '2026-10-30',
    sourceUrl: 'https://github.com/an-author-with-a-long-account-name/a-repository-whose-name-goes-on-and-on-without-any-break',
    author: '@an_author_handle_that_goes_on_and_on_without_a_break',
    title: { zh: '参考图画的鹈鹕 pelican_riding_a_bicycle_v2_final_render.svg', en: 'Pelican from pelican_riding_a_bicycle_v2_final_render.svg' },
    prompt: `参考这张图 ${longAddress} 画一只骑自行车的鹈鹕`,
  });
  const unbrokenGone = makeRecord({ date: '2026-10-29', sourceUrl: `https://github.com/an-author-with-a-long-account-name/${'another-repository-name-'.repeat(4)}end`, title: { zh: '撤下的作品', en: 'A withdrawn work' } });
  const hostile = makeRecord({ date: '2026-11-01', title: { zh: '<script>window.__pwned = 1</script>恶意标题', en: '<script>window.__pwned = 1</script> hostile "title" & more' }, notes: { zh: '<img src=x onerror="window.__pwned=2">', en: '<img src=x onerror="window.__pwned=2">' } });

  before(async () => {
    server = await startTestServer({ demo: true });
    await server.backend.store.putRecords([hostile, unbroken, unbrokenGone]);
    await withdrawRecords(server.backend.store, { ids: [unbrokenGone.id], reason: 'The author asked for it.', wholeWork: true, followMoves: false });
    await server.syncSearch();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const open = (path: string, options: OpenOptions = {}): Promise<Page> => openPage(browser, server.baseUrl, path, { ...options, onError: (entry) => consoleErrors.push(entry) });

  const cardTitles = (page: Page) => page.locator('.card-title').allTextContents();
  /** Chooses a filter's value as a mouse does: a press on the select, then the option (which applies it at once). */
  const chooseWithMouse = async (page: Page, name: string, value: string): Promise<void> => {
    await page.click(`select[name="${name}"]`);
    await page.selectOption(`select[name="${name}"]`, value);
  };

  it('searches from the home page in both languages', async () => {
    const zh = await open('/');
    expect(await zh.getAttribute('html', 'lang')).to.equal('zh-Hans');
    await zh.fill('input[name="q"]', '鹈鹕');
    await zh.press('input[name="q"]', 'Enter');
    await zh.waitForURL(/q=/);
    const zhTitles = await cardTitles(zh);
    expect(zhTitles.length).to.be.greaterThan(3);
    expect(await zh.locator('.count').textContent()).to.match(/共 \d+ 件/);
    const en = await open('/en/');
    expect(await en.getAttribute('html', 'lang')).to.equal('en');
    await en.fill('input[name="q"]', 'pelican');
    await en.press('input[name="q"]', 'Enter');
    await en.waitForURL(/q=pelican/);
    const enTitles = await cardTitles(en);
    expect(enTitles.length).to.be.greaterThan(3);
    expect(enTitles.some((title) => /pelican/i.test(title))).to.equal(true);
  });

  it('filters with a select and pages through the gallery', async () => {
    const page = await open('/en/');
    await Promise.all([page.waitForURL(/format=svg/), chooseWithMouse(page, 'format', 'svg')]);
    const tags = await page.locator('.card .tag:not(.tag-timeline)').allTextContents();
    expect(tags.length).to.be.greaterThan(0);
    expect(tags.every((tag) => tag === 'SVG')).to.equal(true);
    expect(await page.locator('select[name="format"] option[value="svg"]').textContent()).to.match(/SVG \(\d+\)/);
    const home = await open('/en/');
    const first = await cardTitles(home);
    await Promise.all([home.waitForURL(/page=2/), home.click('a[rel="next"]')]);
    const second = await cardTitles(home);
    expect(second.length).to.be.greaterThan(0);
    expect(second.filter((title) => first.includes(title))).to.deep.equal([]);
  });

  it('puts only the fields that hold something in the address of a search', async () => {
    const page = await open('/en/');
    await Promise.all([page.waitForURL(/format=svg/), chooseWithMouse(page, 'format', 'svg')]);
    expect(page.url()).to.equal(`${server.baseUrl}/en/?format=svg`);
    await page.fill('input[name="q"]', 'pelican');
    await Promise.all([page.waitForURL(/q=pelican/), page.press('input[name="q"]', 'Enter')]);
    expect(page.url()).to.equal(`${server.baseUrl}/en/?q=pelican&format=svg`);
    await page.fill('input[name="q"]', '');
    // A reader who typed, then picks a filter with the mouse: the press on the select comes first.
    await page.click('select[name="format"]');
    await Promise.all([page.waitForURL((url) => !url.searchParams.has('format')), page.selectOption('select[name="format"]', '')]);
    expect(page.url()).to.equal(`${server.baseUrl}/en/`);
  });

  it('applies a filter whose value was set without a press on it (a screen reader\'s list, voice control) only on Filter, and says how filters apply', async () => {
    const page = await open('/en/');
    const loads: string[] = [];
    page.on('framenavigated', (frame) => loads.push(frame.url()));
    await page.selectOption('select[name="format"]', 'svg');
    // A press elsewhere (in the search box) does not make the next change a mouse's.
    await page.click('input[name="q"]');
    await page.selectOption('select[name="year"]', '2025');
    await page.waitForTimeout(500);
    expect(loads).to.deep.equal([]);
    await Promise.all([page.waitForURL(/format=svg/), page.click('form.search button.secondary')]);
    expect(new URL(page.url()).searchParams.get('year')).to.equal('2025');
    for (const [path, note] of [['/en/', /^A filter chosen with the mouse applies at once/], ['/', /^用鼠标选中的筛选立即生效/]] as const) {
      const withScript = await open(path);
      await withScript.waitForLoadState('load');
      expect(await withScript.locator('.filters-note').textContent(), path).to.match(note);
      expect(await withScript.locator('.filters-note').isVisible(), path).to.equal(true);
      expect(await withScript.locator('select[name="format"]').getAttribute('aria-describedby'), path).to.equal('filters-note');
      // Without the script no filter applies at once, and nothing says it does.
      expect(await (await open(path, { javaScriptEnabled: false })).locator('.filters-note').isVisible(), path).to.equal(false);
    }
  });

  it('moves through a filter with the arrow keys without loading a page per key, and applies it with Enter', async () => {
    const page = await open('/en/');
    const loads: string[] = [];
    page.on('framenavigated', (frame) => loads.push(frame.url()));
    const select = page.locator('select[name="format"]');
    await select.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.waitForTimeout(500);
    expect(loads).to.deep.equal([]);
    const chosen = await select.inputValue();
    expect(chosen).to.not.equal('');
    await Promise.all([page.waitForURL(/format=/), page.keyboard.press('Enter')]);
    expect(new URL(page.url()).searchParams.get('format')).to.equal(chosen);
    expect(await page.locator('select[name="format"]').inputValue()).to.equal(chosen);
  });

  it('shows a filter of several values from a shared address, and keeps it when another filter changes', async () => {
    const page = await open('/en/?format=svg,game&year=2025');
    expect(await page.locator('select[name="format"]').inputValue()).to.equal('svg,game');
    expect(await page.locator('select[name="format"] option:checked').textContent()).to.match(/^SVG \+ Game \(\d+\)$/);
    await Promise.all([page.waitForURL((url) => url.searchParams.get('format') !== null && !url.searchParams.get('year')), chooseWithMouse(page, 'year', '')]);
    expect(new URL(page.url()).searchParams.get('format')).to.equal('svg,game');
    const tags = await page.locator('.card .tag:not(.tag-timeline)').allTextContents();
    expect(new Set(tags)).to.deep.equal(new Set(['SVG', 'Game']));
  });

  it('follows the model of a record page to its other works, and keeps that filter when a select changes', async () => {
    const page = await open('/en/specimens/svg-gpt-4-8d5be076/');
    await Promise.all([page.waitForURL(/model=GPT-4/), page.locator('dl.facts a', { hasText: /^GPT-4$/ }).click()]);
    const models = await page.locator('.card-meta span:first-child').allTextContents();
    expect(models.length).to.be.greaterThan(1);
    expect(new Set(models)).to.deep.equal(new Set(['GPT-4']));
    expect(await page.locator('.active-filters li').textContent()).to.match(/^Model: GPT-4/);
    await Promise.all([page.waitForURL(/format=svg/), chooseWithMouse(page, 'format', 'svg')]);
    expect(new URL(page.url()).searchParams.get('model')).to.equal('GPT-4');
    await Promise.all([page.waitForURL((url) => !url.searchParams.has('model')), page.locator('.active-filters a').click()]);
    expect(new URL(page.url()).searchParams.get('format')).to.equal('svg');
  });

  it('opens a record, copies its citation and switches language', async () => {
    const page = await open('/en/?q=pelican');
    const title = (await page.locator('.card-title').first().textContent()) ?? '';
    await Promise.all([page.waitForURL(/\/en\/specimens\/[^/]+\/$/), page.locator('.card a').first().click()]);
    expect(await page.locator('h1').textContent()).to.equal(title);
    const citation = (await page.locator('#citation-text').textContent()) ?? '';
    expect(citation).to.include(title);
    await page.click('button.copy');
    expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal(citation);
    expect(await page.locator('button.copy').textContent()).to.equal('Copied');
    // A screen reader is told too: the status region says it.
    expect(await page.getByRole('status').textContent()).to.equal('Copied');
    const id = page.url().split('/').at(-2);
    await Promise.all([page.waitForURL(/\/specimens\//), page.click('a.lang-switch')]);
    expect(page.url()).to.equal(`${server.baseUrl}/specimens/${id}/`);
    expect(await page.getAttribute('html', 'lang')).to.equal('zh-Hans');
    expect(await page.locator('a[type="text/markdown"]').getAttribute('href')).to.match(/index\.md$/);
  });

  it('says when copying the citation failed, in a status that screen readers announce, and never that it was copied', async () => {
    for (const [path, failed] of [['/en/specimens/svg-gpt-4-8d5be076/', /^Could not copy\./], ['/specimens/svg-gpt-4-8d5be076/', /^未能复制。/]] as const) {
      const page = await open(path);
      await page.waitForLoadState('load');
      // A browser that refuses both ways of copying.
      // (A string: the test's compiler would name the functions with a helper the page lacks.)
      await page.evaluate(`Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) } }); document.execCommand = () => false;`);
      const label = await page.locator('button.copy').textContent();
      await page.click('button.copy');
      const status = page.getByRole('status');
      await status.filter({ hasText: failed }).waitFor({ timeout: 5000 });
      expect(await status.isVisible(), path).to.equal(true);
      expect(await page.locator('button.copy').textContent(), path).to.equal(label);
    }
  });

  it('offers the citation copy button only where the script runs that makes it work', async () => {
    const path = '/en/specimens/svg-gpt-4-8d5be076/';
    const without = await open(path, { javaScriptEnabled: false });
    expect(await without.locator('#citation-text').isVisible()).to.equal(true);
    expect(await without.locator('button.copy').isVisible()).to.equal(false);
    const withScript = await open(path);
    await withScript.waitForLoadState('load');
    expect(await withScript.locator('button.copy').isVisible()).to.equal(true);
  });

  it('shows the timeline in chronological order', async () => {
    const page = await open('/en/timeline/');
    const dates = await page.locator('.card-meta span:nth-child(2)').allTextContents();
    expect(dates.length).to.be.greaterThan(3);
    expect(dates).to.deep.equal([...dates].sort());
    // Every entry is a timeline record: no mark repeats the page's name; the gallery marks them among the rest.
    expect(await page.locator('.timeline-grid .tag-timeline').count()).to.equal(0);
    expect(await (await open('/en/?kind=timeline')).locator('.tag-timeline').count()).to.equal(dates.length);
  });

  it('escapes hostile record text', async () => {
    const page = await open(`/en/specimens/${hostile.id}/`);
    expect(await page.locator('h1').textContent()).to.equal('<script>window.__pwned = 1</script> hostile "title" & more');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).to.equal(undefined);
    const list = await open('/en/?q=hostile');
    expect(await cardTitles(list)).to.include('<script>window.__pwned = 1</script> hostile "title" & more');
    expect(await list.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).to.equal(undefined);
  });

  it('gives link previews their OpenGraph and Twitter card tags, with the WebP preview at its real size', async () => {
    const meta = (page: Page, key: string) => page.locator(`meta[property="${key}"], meta[name="${key}"]`).getAttribute('content');
    const list = (await (await fetch(`${server.baseUrl}/api/v1/specimens?lang=en&limit=50`)).json()) as { items: { id: string; url: string; title: string; notes: string; thumbnail: string | null; media: unknown[] }[] };
    const withImage = list.items.find((item) => item.thumbnail && item.media.length > 0);
    if (!withImage?.thumbnail) throw new Error('the demo has a record with a preview');
    const page = await open(`/en/specimens/${withImage.id}/`);
    expect(await meta(page, 'og:title')).to.equal(withImage.title);
    expect(await meta(page, 'og:description')).to.equal(withImage.notes.slice(0, 200));
    expect(await meta(page, 'og:type')).to.equal('article');
    expect(await meta(page, 'og:url')).to.equal(withImage.url);
    expect(await meta(page, 'og:site_name')).to.equal('Model Works Archive');
    expect(await meta(page, 'og:locale')).to.equal('en_US');
    expect(await meta(page, 'og:image')).to.equal(withImage.thumbnail);
    expect(await meta(page, 'og:image:type')).to.equal('image/webp');
    expect(await meta(page, 'twitter:card')).to.equal('summary_large_image');
    expect(await meta(page, 'twitter:image')).to.equal(withImage.thumbnail);
    expect(await meta(page, 'twitter:title')).to.equal(`${withImage.title} · Model Works Archive`);
    const image = await fetch(withImage.thumbnail);
    expect(image.headers.get('content-type')).to.equal('image/webp');
    const decoded = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect(decoded.format).to.equal('webp');
    expect([String(decoded.width), String(decoded.height)]).to.deep.equal([await meta(page, 'og:image:width'), await meta(page, 'og:image:height')]);
    expect(await page.locator('link[rel="alternate"][hreflang="zh-Hans"]').getAttribute('href')).to.equal(`${server.baseUrl}/specimens/${withImage.id}/`);

    const zh = await open(`/specimens/${hostile.id}/`);
    expect(await meta(zh, 'og:title')).to.equal(hostile.title.zh);
    expect(await meta(zh, 'og:locale')).to.equal('zh_CN');
    expect(await meta(zh, 'twitter:card')).to.equal('summary');
    expect(await zh.locator('meta[property="og:image"]').count()).to.equal(0);
    expect(await zh.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).to.equal(undefined);
    const structured = JSON.parse((await zh.locator('script[type="application/ld+json"]').textContent()) ?? '') as { name: string };
    expect(structured.name).to.equal(hostile.title.zh);
  });

  it('searches without JavaScript', async () => {
    const page = await open('/en/', { javaScriptEnabled: false });
    await page.fill('input[name="q"]', 'lighthouse');
    await Promise.all([page.waitForURL(/q=lighthouse/), page.click('form.search button[type="submit"]:not(.secondary)')]);
    expect((await cardTitles(page)).some((title) => /lighthouse/i.test(title))).to.equal(true);
  });

  it('answers unknown pages with the 404 page, and logged no console errors anywhere', async () => {
    const page = await open('/en/no-such-page/');
    expect(await page.locator('h1').textContent()).to.equal('Page not found');
    const missing = await page.goto(`${server.baseUrl}/en/specimens/svg-none-00000000/`);
    expect(missing?.status()).to.equal(404);
    expect(consoleErrors.filter((entry) => !/404 \(Not Found\)/.test(entry) || !/no-such-page|svg-none/.test(entry))).to.deep.equal([]);
  });

  it('sends a strict Content-Security-Policy that the pages live within', async () => {
    const response = await fetch(`${server.baseUrl}/en/`);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).to.include("script-src 'self'").and.include("frame-ancestors 'none'");
    expect(policy).to.not.include('unsafe-inline');
    expect(response.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(response.headers.get('referrer-policy')).to.equal('strict-origin-when-cross-origin');
    const violations: string[] = [];
    const page = await open('/en/specimens/' + hostile.id + '/');
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.click('button.copy');
    await page.goto(`${server.baseUrl}/en/?q=pelican`);
    expect(violations).to.deep.equal([]);
  });

  it('shows the previews when the site is reached by another name than its base URL', async () => {
    // The base URL names 127.0.0.1; a reader who types localhost gets pages whose previews are on 127.0.0.1.
    const context = await browser.newContext();
    const page = await context.newPage();
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    await page.goto(`${server.baseUrl.replace('127.0.0.1', 'localhost')}/en/specimens/svg-gpt-4-8d5be076/`);
    const preview = page.locator('img').first();
    expect(await preview.getAttribute('src')).to.match(/^http:\/\/127\.0\.0\.1:\d+\/media\//);
    await page.waitForFunction(() => Array.from(document.images).every((image) => image.complete));
    expect(await preview.evaluate((image: HTMLImageElement) => image.naturalWidth)).to.be.greaterThan(0);
    expect(blocked).to.deep.equal([]);
    await context.close();
  });

  it('works on a phone-sized screen', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    for (const path of ['/en/', '/timeline/', '/en/specimens/svg-gpt-4-8d5be076/', '/en/developers/']) {
      await page.goto(`${server.baseUrl}${path}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).to.be.at.most(0);
    }
    await context.close();
  });

  it('keeps long unbroken text (addresses, file names, handles) within the width of a phone', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 780 } });
    const page = await context.newPage();
    const author = encodeURIComponent(unbroken.author);
    for (const path of [`/specimens/${unbroken.id}/`, `/en/specimens/${unbroken.id}/`, '/?q=pelican_riding_a_bicycle_v2_final_render', `/en/?author=${author}`, `/specimens/${unbrokenGone.id}/`, `/en/specimens/${unbrokenGone.id}/`]) {
      const response = await page.goto(`${server.baseUrl}${path}`);
      expect(response?.status(), path).to.be.oneOf([200, 410]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).to.be.at.most(0);
    }
    await page.goto(`${server.baseUrl}/specimens/${unbroken.id}/`);
    expect(await page.locator('.prompt blockquote').textContent()).to.include(longAddress);
    await context.close();
  });

  it('sets Chinese upright: browsers slant it by force, which Chinese type never is', async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    for (const [path, selector] of [['/timeline/', '.intro'], ['/?q=%E6%B2%A1%E6%9C%89%E8%BF%99%E4%B8%AA%E8%AF%8D', '.empty'], [`/specimens/${unbrokenGone.id}/`, 'cite']] as const) {
      await page.goto(`${server.baseUrl}${path}`);
      expect(await page.locator(selector).first().evaluate((element) => getComputedStyle(element).fontStyle), `${path} ${selector}`).to.equal('normal');
    }
    // Title marks stand for the italic a Chinese title cannot take.
    expect(await page.locator('cite').textContent()).to.equal('《撤下的作品》');
    await page.goto(`${server.baseUrl}/en/timeline/`);
    expect(await page.locator('.intro').evaluate((element) => getComputedStyle(element).fontStyle)).to.equal('italic');
    await page.goto(`${server.baseUrl}/en/specimens/${unbrokenGone.id}/`);
    expect(await page.locator('cite').textContent()).to.equal('A withdrawn work');
    await context.close();
  });

  it('names each work of a list by a heading, so that a screen reader moves from work to work', async () => {
    const page = await open('/en/');
    const titles = await cardTitles(page);
    expect(titles.length).to.be.greaterThan(3);
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).to.include.members(titles);
  });

  it('prints a record without navigation, forms or buttons, and with its source\'s address written out', async () => {
    const page = await open('/en/specimens/svg-gpt-4-8d5be076/');
    await page.emulateMedia({ media: 'print' });
    for (const selector of ['.masthead nav', '.copy', '.colophon']) expect(await page.locator(selector).first().isVisible(), selector).to.equal(false);
    expect(await page.locator('h1').isVisible()).to.equal(true);
    const source = page.locator('a[rel~="external"]').first();
    const written = await source.evaluate((link) => getComputedStyle(link, '::after').content);
    expect(written).to.equal(`" <${await source.getAttribute('href')}>"`);
    await page.emulateMedia({ media: 'screen' });
    expect(await page.locator('.masthead nav').isVisible()).to.equal(true);
  });

  it('lays the timeline out in one column on a phone', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    // The timeline is one column on a phone: every entry starts at the same left edge.
    await page.goto(`${server.baseUrl}/en/timeline/`);
    const lefts = await page.locator('.timeline-grid .card').evaluateAll((cards) => cards.map((card) => Math.round(card.getBoundingClientRect().left)));
    expect(new Set(lefts).size).to.equal(1);
  });
});
