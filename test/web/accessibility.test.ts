import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openPage } from '../helpers/chromium.ts';
import type { OpenOptions } from '../helpers/chromium.ts';
import { join } from 'node:path';
import sharp from 'sharp';
import type { CanonicalRecord } from '../../src/domain/record.ts';
import { storePreview } from '../../src/media/media-files.ts';
import { makeRecord } from '../helpers/factories.ts';
import { startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';

/** What the keyboard reached: the focused element's link, the focus ring it draws, and its size. */
interface Focused {
  href: string | null;
  /** The element's tag and text, to name it in a failure. */
  what: string;
  outlineStyle: string;
  outlineWidth: number;
  outlineColor: string;
  width: number;
  height: number;
}

/** Presses Tab `times` times and says, after each, which element has the focus and how it shows it. */
async function tabThrough(page: Page, times: number): Promise<Focused[]> {
  const reached: Focused[] = [];
  for (let press = 0; press < times; press += 1) {
    await page.keyboard.press('Tab');
    reached.push(
      await page.evaluate(() => {
        const element = document.activeElement ?? document.body;
        const style = getComputedStyle(element);
        const box = element.getBoundingClientRect();
        const what = `${element.tagName.toLowerCase()} ${(element.textContent ?? '').trim().slice(0, 40)}`;
        return { href: element.getAttribute('href'), what, outlineStyle: style.outlineStyle, outlineWidth: parseFloat(style.outlineWidth), outlineColor: style.outlineColor, width: box.width, height: box.height };
      }),
    );
  }
  return reached;
}

/** The nodes of Chromium's own accessibility tree that a screen reader is given (role and name), in the tree's order, not the page's. */
async function chromiumTree(page: Page): Promise<{ role: string; name: string }[]> {
  const devtools = await page.context().newCDPSession(page);
  const { nodes } = (await devtools.send('Accessibility.getFullAXTree')) as { nodes: { ignored: boolean; role?: { value: string }; name?: { value: string } }[] };
  await devtools.detach();
  return nodes.filter((node) => !node.ignored).map((node) => ({ role: node.role?.value ?? '', name: node.name?.value ?? '' }));
}

/** An animated GIF of four frames, each one colour, 100 ms apiece, looping: sharp writes the frames stacked as one raw image. */
async function animatedGif(): Promise<Buffer> {
  const [width, height] = [160, 120];
  const colours = [[200, 30, 30], [30, 160, 40], [30, 60, 200], [220, 200, 20]];
  const frames = Buffer.concat(colours.map((colour) => Buffer.alloc(width * height * 4).fill(Buffer.from([...colour, 255]))));
  return sharp(frames, { raw: { width, height: height * colours.length, channels: 4, pageHeight: height } }).gif({ delay: colours.map(() => 100), loop: 0 }).toBuffer();
}

/** How many different pictures an element shows over about a second (screenshots 150 ms apart). */
async function picturesOver(page: Page, selector: string): Promise<number> {
  const seen = new Set<string>();
  for (let shot = 0; shot < 7; shot += 1) {
    seen.add((await page.locator(selector).first().screenshot()).toString('base64'));
    await page.waitForTimeout(150);
  }
  return seen.size;
}

/** The relative luminance of a computed rgb() colour, as WCAG defines it. */
function luminance(color: string): number {
  const [red = 0, green = 0, blue = 0] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((channel) => {
    const value = Number(channel) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
}

/** The WCAG contrast ratio of two computed colours (1 to 21). */
function contrastRatio(one: string, other: string): number {
  const [lighter = 0, darker = 0] = [luminance(one), luminance(other)].sort((a, b) => b - a);
  return (lighter + 0.05) / (darker + 0.05);
}

describe('the website with a keyboard, a screen reader and a phone (Chromium)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let browser: Browser;

  // A work whose preview is an animated GIF (four frames of different colours, 100 ms each), stored as the publisher stores one.
  let animated: CanonicalRecord;

  before(async () => {
    server = await startTestServer({ demo: true });
    const preview = await storePreview(join(server.dataDir, 'media'), await animatedGif(), 'gif');
    animated = makeRecord({ format: 'animation', mediaStatus: 'local-media', media: [preview], title: { zh: '变色的方块', en: 'A square changing colour' } });
    await server.backend.store.putRecords([animated]);
    await server.syncSearch();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const open = (path: string, options: OpenOptions = {}): Promise<Page> => openPage(browser, server.baseUrl, path, options);

  it('offers a link past the header as the first stop of Tab, shown when focused, in the page\'s language', async () => {
    const pages: [path: string, label: string][] = [['/en/', 'Skip to content'], ['/', '跳到正文'], ['/en/specimens/svg-gpt-4-8d5be076/', 'Skip to content']];
    for (const [path, label] of pages) {
      const page = await open(path);
      const skip = page.locator('a.skip-link');
      const hidden = await skip.boundingBox();
      expect((hidden?.width ?? 0) * (hidden?.height ?? 0), `${path}: hidden until focused`).to.be.at.most(1);
      await page.keyboard.press('Tab');
      const first = await page.evaluate(() => ({ text: document.activeElement?.textContent, target: document.querySelector(document.activeElement?.getAttribute('href') ?? '#none')?.tagName }));
      expect(first, path).to.deep.equal({ text: label, target: 'MAIN' });
      const shown = await skip.boundingBox();
      expect(shown?.width, path).to.be.greaterThan(40);
      expect(shown?.height, path).to.be.greaterThan(20);
      expect(shown?.y, path).to.be.at.least(0);
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('main') !== null), `${path}: the next Tab is in main`).to.equal(true);
    }
  });

  it('gives the ✕ of a filter chip a target of 24 px on a phone (44 px to a finger), and sets the chips apart from the count', async () => {
    const path = '/en/?model=GPT-4&from=2024-01-01&sort=oldest';
    const phone = await open(path, { viewport: { width: 390, height: 844 } });
    const removers = await phone.locator('.active-filters a').all();
    expect(removers.length).to.equal(3);
    // Each ✕ is named by what it drops (hidden text, which marks an author's language where aria-label could not).
    const names = (await chromiumTree(phone)).filter((node) => node.role === 'link' && node.name.startsWith('Remove the filter')).map((node) => node.name);
    expect(names).to.have.members(['Remove the filter Model: GPT-4', 'Remove the filter Date of the work: from 2024-01-01', 'Remove the filter Order: oldest first']);
    for (const remover of removers) {
      const box = await remover.boundingBox();
      expect(box?.width).to.be.at.least(24);
      expect(box?.height).to.be.at.least(24);
    }
    const [chips, count] = await Promise.all([phone.locator('.active-filters').boundingBox(), phone.locator('.count').boundingBox()]);
    if (!chips || !count) throw new Error('the page shows its filters and its count');
    expect(count.y - (chips.y + chips.height)).to.be.at.least(8);

    // On a touch screen, a press anywhere within 44 × 44 px around the ✕ lands on it.
    const touch = await open(path, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const reach = await touch.locator('.active-filters a').evaluateAll((links) =>
      links.map((link) => {
        const box = link.getBoundingClientRect();
        const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
        return [[-21, 0], [21, 0], [0, -21], [0, 21]].every(([dx = 0, dy = 0]) => document.elementFromPoint(x + dx, y + dy)?.closest('a') === link);
      }),
    );
    expect(reach).to.deep.equal([true, true, true]);
  });

  it('outlines the search box and the filter selects at 3:1 against the page and their own fill (WCAG 1.4.11)', async () => {
    for (const path of ['/en/', '/timeline/', '/en/no-such-page/']) {
      const page = await open(path);
      const controls = await page.locator('form.search input[type="search"], form.search select, form.search button.secondary').evaluateAll((elements) => {
        const pageColor = getComputedStyle(document.documentElement).backgroundColor;
        return elements.map((element) => {
          const style = getComputedStyle(element);
          return { control: element.getAttribute('name') ?? element.textContent ?? '', edge: style.borderTopColor, fill: style.backgroundColor === 'rgba(0, 0, 0, 0)' ? pageColor : style.backgroundColor, page: pageColor };
        });
      });
      expect(controls.length, path).to.be.greaterThan(0);
      for (const { control, edge, fill, page: background } of controls) {
        expect(contrastRatio(edge, background), `${path} ${control} against the page`).to.be.at.least(3);
        expect(contrastRatio(edge, fill), `${path} ${control} against its fill`).to.be.at.least(3);
      }
    }
  });

  it('keeps the Search button\'s outline and tells the current section apart in forced colors (Windows contrast themes)', async () => {
    for (const path of ['/en/', '/timeline/', '/en/specimens/svg-gpt-4-8d5be076/', '/developers/']) {
      const page = await open(path);
      await page.emulateMedia({ forcedColors: 'active' });
      const search = await page.locator('form.search button[type="submit"]:not(.secondary)').evaluateAll((buttons) => buttons.map((button) => getComputedStyle(button)));
      for (const style of search) {
        expect(style.borderTopStyle, `${path}: the Search button's edge`).to.equal('solid');
        expect(parseFloat(style.borderTopWidth), `${path}: the Search button's edge`).to.be.at.least(1);
      }
      // Forced colors paint a border whatever its colour: a link is marked when it has a bottom border or an underline.
      const links = await page.locator('.masthead nav a:not(.lang-switch)').evaluateAll((anchors) =>
        anchors.map((anchor) => {
          const style = getComputedStyle(anchor);
          const bordered = style.borderBottomStyle !== 'none' && parseFloat(style.borderBottomWidth) > 0;
          return { link: anchor.textContent, current: anchor.hasAttribute('aria-current'), marked: bordered || style.textDecorationLine.includes('underline') };
        }),
      );
      expect(links.filter((link) => link.current).length, path).to.equal(1);
      for (const link of links) expect(link.marked, `${path}: ${link.link}`).to.equal(link.current);
    }
  });

  it('sets its text in the size the reader chose as the browser\'s default, 16 px unless changed', async () => {
    const sizes = async (page: Page) => page.evaluate(() => ['html', '.card-title', '.filters', '.brand-name'].map((selector) => parseFloat(getComputedStyle(document.querySelector(selector) ?? document.body).fontSize)));
    const page = await open('/en/');
    const usual = await sizes(page);
    expect(usual[0]).to.equal(16);
    // What the browser's settings ("Font size") change: the default size of the standard font.
    const devtools = await page.context().newCDPSession(page);
    await devtools.send('Page.setFontSizes', { fontSizes: { standard: 24 } });
    await page.reload();
    const hundredths = (size: number) => Math.round(size * 100) / 100;
    expect((await sizes(page)).map(hundredths)).to.deep.equal(usual.map((size) => hundredths(size * 1.5)));
  });

  it('wraps the developers page\'s examples at 320 px, with no Tab stop on them', async () => {
    for (const path of ['/developers/', '/en/developers/']) {
      const page = await open(path, { viewport: { width: 320, height: 700 } });
      const blocks = await page.locator('pre').evaluateAll((elements) => elements.map((element) => element.scrollWidth - element.clientWidth));
      expect(blocks.length, path).to.be.greaterThan(2);
      expect(blocks, `${path}: how far each example reaches past its box`).to.deep.equal(blocks.map(() => 0));
      const stops = (await page.locator('a[href], button:not([hidden]), input:not([type="hidden"]), select').count()) + blocks.length;
      const reached = await tabThrough(page, stops);
      expect(reached.map((focused) => focused.what).filter((what) => /^(pre|code) /.test(what)), path).to.deep.equal([]);
    }
  });

  it('names a record page\'s sections by headings as written (no uppercase transform), the facts too, in both languages', async () => {
    const pages: [path: string, headings: string[]][] = [
      ['/en/specimens/svg-gpt-4-8d5be076/', ['About the work', 'Prompt', 'Citation']],
      ['/specimens/svg-gpt-4-8d5be076/', ['作品信息', '提示词', '引用']],
    ];
    for (const [path, headings] of pages) {
      const page = await open(path);
      const title = (await page.locator('h1').textContent()) ?? '';
      const read = (await chromiumTree(page)).filter((node) => node.role === 'heading').map((node) => node.name);
      expect(read, path).to.have.members([title, ...headings]);
    }
  });

  it('names the masthead\'s link by the archive\'s name and the source link without its arrow, in both languages', async () => {
    const pages: [path: string, archive: string, source: string][] = [['/en/specimens/svg-gpt-4-8d5be076/', 'Model Works Archive', 'Original source'], ['/specimens/svg-gpt-4-8d5be076/', '模型作品档案馆', '原始来源']];
    for (const [path, archive, source] of pages) {
      const links = (await chromiumTree(await open(path))).filter((node) => node.role === 'link').map((node) => node.name);
      expect(links, path).to.include(archive).and.include(source);
      expect(links.filter((name) => name.startsWith(archive) && name !== archive), path).to.deep.equal([]);
      expect(links.filter((name) => name.includes('↗')), path).to.deep.equal([]);
    }
  });

  it('names each card once, by its title, leaving out the thumbnail; a record page\'s preview keeps its text', async () => {
    for (const path of ['/en/', '/timeline/']) {
      const page = await open(path);
      const cards = await page.locator('.card > a').all();
      let thumbnails = 0;
      for (const card of cards) {
        const title = (await card.locator('.card-title').textContent()) ?? '';
        thumbnails += await card.locator('img').count();
        expect(await card.ariaSnapshot(), title).to.not.match(/^\s*- img\b/m);
        expect(await page.getByRole('link', { name: title, exact: true }).count(), `${path}: a link named "${title}"`).to.be.at.least(1);
      }
      expect(thumbnails, path).to.be.greaterThan(3);
    }
    const record = await open('/en/specimens/svg-gpt-4-8d5be076/');
    const title = (await record.locator('h1').textContent()) ?? '';
    expect(await record.getByRole('img', { name: title, exact: true }).count()).to.equal(1);
  });

  it('shows the whole search hint in the search box of a phone, down to 320 px, in both languages', async () => {
    for (const [path, width] of [['/en/', 390], ['/', 390], ['/en/timeline/', 390], ['/timeline/', 390], ['/en/', 320], ['/', 320], ['/en/timeline/', 320], ['/timeline/', 320]] as const) {
      const phone = await open(path, { viewport: { width, height: 844 } });
      const fit = await phone.locator('input[name="q"]').evaluate((input: HTMLInputElement) => {
        const style = getComputedStyle(input);
        const context = document.createElement('canvas').getContext('2d');
        if (!context) throw new Error('no canvas');
        context.font = style.font;
        // The test machine may have no Chinese font; a Chinese character takes a full em wherever one is installed.
        const wide = /[\u3000-\u9fff\uff00-\uffef]/g;
        const hint = input.placeholder;
        const width = context.measureText(hint.replace(wide, '')).width + (hint.match(wide)?.length ?? 0) * parseFloat(style.fontSize);
        return { hint, width, room: input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) };
      });
      expect(fit.hint, path).to.not.equal('');
      expect(fit.width, `${path} at ${width} px: "${fit.hint}" fits`).to.be.at.most(fit.room);
    }
  });

  it('draws one clear focus ring, 3 px of the accent, on everything the keyboard reaches (the dark Search button and the skip link too)', async () => {
    const pages: [path: string, mustReach: string[]][] = [['/en/', ['a Skip to content', 'button Search']], ['/specimens/svg-gpt-4-8d5be076/', ['a 跳到正文']]];
    for (const [path, mustReach] of pages) {
      const page = await open(path);
      const paper = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      const focusable = await page.locator('a[href], button:not([hidden]), input:not([type="hidden"]), select').count();
      const reached = await tabThrough(page, focusable);
      expect(reached.map((focused) => focused.what), path).to.include.members(mustReach);
      for (const focused of reached) {
        expect(focused.outlineStyle, `${path}: ${focused.what}`).to.equal('solid');
        expect(focused.outlineWidth, `${path}: ${focused.what}`).to.equal(3);
        expect(contrastRatio(focused.outlineColor, paper), `${path}: ${focused.what} against the page`).to.be.at.least(3);
      }
    }
  });

  it('shows an animated preview still until the reader plays it with a button, and pauses it again; never moving by itself, under reduced motion or without scripts', async () => {
    const en = await open(`/en/specimens/${animated.id}/`);
    await en.waitForLoadState('load');
    const preview = '.record-media img';
    expect(await picturesOver(en, preview), 'still by default').to.equal(1);
    const play = en.getByRole('button', { name: 'Play animation', exact: true });
    expect(await play.getAttribute('aria-pressed')).to.equal('false');
    // With the keyboard: the button is a real one.
    await play.focus();
    await en.keyboard.press('Enter');
    expect(await play.getAttribute('aria-pressed')).to.equal('true');
    await en.waitForFunction((selector) => (document.querySelector(selector) as HTMLImageElement | null)?.complete, preview);
    expect(await picturesOver(en, preview), 'moving once played').to.be.greaterThan(1);
    await en.keyboard.press('Space');
    expect(await play.getAttribute('aria-pressed')).to.equal('false');
    expect(await picturesOver(en, preview), 'still again once paused').to.equal(1);

    const reduced = await open(`/specimens/${animated.id}/`);
    await reduced.emulateMedia({ reducedMotion: 'reduce' });
    await reduced.reload();
    expect(await picturesOver(reduced, preview), 'still under reduced motion').to.equal(1);
    expect(await reduced.getByRole('button', { name: '播放动画', exact: true }).isVisible()).to.equal(true);

    // Without scripts: still, no button that would do nothing, and a link to the file as stored.
    const without = await open(`/en/specimens/${animated.id}/`, { javaScriptEnabled: false });
    expect(await picturesOver(without, preview), 'still without scripts').to.equal(1);
    expect(await without.locator('button.play').isVisible()).to.equal(false);
    const original = without.getByRole('link', { name: 'Original file (may be animated)', exact: true });
    expect(await original.getAttribute('href')).to.match(/\/media\/[0-9a-f]{2}\/[0-9a-f]{64}\.gif$/);
    expect(await without.locator(preview).first().getAttribute('alt')).to.equal('A square changing colour');
  });

  it('reaches every timeline entry with Tab, each drawing a focus ring, laid out as before', async () => {
    for (const path of ['/en/timeline/', '/timeline/']) {
      const page = await open(path);
      const entries = await page.locator('.timeline-grid .card > a').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
      expect(entries.length, path).to.be.greaterThan(3);
      const focusable = await page.locator('a[href], button, input, select').count();
      const reached = await tabThrough(page, focusable);
      for (const href of entries) {
        const entry = reached.find((focused) => focused.href === href);
        expect(entry, `${path}: ${href} is reached with Tab`).to.not.equal(undefined);
        expect(entry?.outlineStyle, href ?? '').to.not.equal('none');
        expect(entry?.outlineWidth, href ?? '').to.be.at.least(2);
        expect((entry?.width ?? 0) * (entry?.height ?? 0), href ?? '').to.be.greaterThan(0);
      }
      // The plate stays in the left column and the title beside it, at the top of the entry.
      const [plate, title] = await Promise.all([page.locator('.timeline-grid .plate').first().boundingBox(), page.locator('.timeline-grid .card-title').first().boundingBox()]);
      if (!plate || !title) throw new Error('the first entry has a plate and a title');
      expect(title.x).to.be.greaterThan(plate.x + plate.width);
      expect(Math.abs(title.y - plate.y)).to.be.below(12);
    }
  });
});
