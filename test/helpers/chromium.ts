import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';

/** Debian's Chromium, or the one CHROMIUM_PATH names. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Starts headless Chromium; fails with how to get it when it is missing. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is needed at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
}

export interface OpenOptions extends Pick<BrowserContextOptions, 'javaScriptEnabled' | 'viewport' | 'hasTouch' | 'isMobile'> {
  /** Told of every console error and uncaught exception of the page, with the page's address. */
  onError?: (entry: string) => void;
}

/** Opens an address in a fresh browser context (clipboard allowed for the site) and waits for it to load. */
export async function openPage(browser: Browser, baseUrl: string, path: string, options: OpenOptions = {}): Promise<Page> {
  const { onError, ...contextOptions } = options;
  const context = await browser.newContext({ javaScriptEnabled: true, ...contextOptions });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  const page = await context.newPage();
  if (onError) {
    page.on('console', (message) => {
      if (message.type() === 'error') onError(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => onError(`${page.url()}: ${error.message}`));
  }
  await page.goto(`${baseUrl}${path}`);
  return page;
}
