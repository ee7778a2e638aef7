import Router from '@koa/router';
import type { Context } from 'koa';
import { readFile } from 'node:fs/promises';
import { h } from 'preact';
import { getSpecimen, getSpecimenPage, listSpecimens, sourceTableOf } from '../../domain/specimens.ts';
import type { ListResponse, ReadContext, SearchParams } from '../../domain/specimens.ts';
import { RECORD_ID_PATTERN } from '../../domain/ids.ts';
import type { Bilingual, Lang } from '../../domain/record.ts';
import { ProblemError } from '../../errors.ts';
import type { FieldError } from '../../errors.ts';
import { MAX_OFFSET, parseSearchParams } from '../../validation/read-params.ts';
import { SCHEMAS } from '../../validation/schemas.ts';
import type { RawQuery } from '../../validation/read-params.ts';
import { langPrefix } from '../../web/i18n.ts';
import { recordMarkdown } from '../../web/markdown.ts';
import { DevelopersPage } from '../../web/pages/developers.tsx';
import { ListPage } from '../../web/pages/home.tsx';
import type { Facets } from '../../web/pages/home.tsx';
import { NotFoundPage } from '../../web/pages/not-found.tsx';
import { TryAgainLaterPage } from '../../web/pages/try-again-later.tsx';
import type { Withdrawal } from '../../web/pages/not-found.tsx';
import { answerMoved, RecordMoved, throwRetired } from '../specimens/retired.ts';
import { RecordPage } from '../../web/pages/record.tsx';
import { renderDocument } from '../../web/render.ts';
import type { SiteAddress } from '../../web/site-address.ts';
import { readOnly, sendWithEntityTag } from '../read-route.ts';
import { entityTag } from '../response-cache.ts';
import type { ResponseCache } from '../response-cache.ts';
import type { AnswersVersion } from '../answers-version.ts';
import { onSiteAddress, redirectOnSite } from '../middlewares/canonical-address.ts';

/** Works per page on the website. */
export const PAGE_SIZE = 24;
const FIRST_YEAR = 2015;
/**
 * What a list page reads from its address: the selects' filters; model and author, which record
 * pages link to; and the API's date range and order, which a shared address can carry.
 */
const PAGE_PARAMETERS = ['q', 'format', 'kind', 'year', 'source', 'model', 'author', 'from', 'to', 'sort'] as const;
/** The API's other list parameters, which pages set themselves (page size, offset, facets, language) or do not offer: refused with a notice. */
const NOT_TAKEN = Object.keys(SCHEMAS.searchParams.properties).filter((name) => !(PAGE_PARAMETERS as readonly string[]).includes(name));

export interface WebOptions {
  /** The version of the catalog pages are computed from (answersVersion). */
  version: () => Promise<AnswersVersion>;
  cache: ResponseCache;
  maxAgeSeconds: number;
  /**
   * The deepest offset list pages read: the API's limit (MAX_OFFSET) unless set lower (tests set
   * one a few pages deep to reach a list's deepest page without 10,000 records).
   */
  maxOffset?: number;
}

/**
 * How many pages a list of `total` works has on the site: pages of PAGE_SIZE works, counted only
 * while a page lies whole within the first `maxOffset` works (offsets stop there). The pager
 * counts with it and the router answers 404 past it, so the last page the pager names is one that
 * answers, and it has no Next link.
 */
export function pagesOfList(total: number, maxOffset: number): number {
  return Math.max(1, Math.min(Math.ceil(total / PAGE_SIZE), Math.floor(maxOffset / PAGE_SIZE)));
}

function otherLanguage(lang: Lang, ctx: Context): string {
  const path = lang === 'zh' ? `/en${ctx.path}` : ctx.path.replace(/^\/en/, '') || '/';
  return ctx.querystring ? `${path}?${ctx.querystring}` : path;
}

/** The first value of a query parameter (a page reads the first of repeated ones); undefined when absent. */
function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A page number as an address writes it (digits, from 1), exact however many digits it has, so a
 * page past the end is named by the number asked; undefined for anything else. Numbers past the
 * last page are left to the page to answer.
 */
function pageNumber(text: string): bigint | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const page = BigInt(text);
  return page >= 1n ? page : undefined;
}

/**
 * Search parameters of a page's query string. Unrelated parameters (utm_…) are ignored; bad values,
 * a page number that is not one, and the API parameters pages do not take are reported.
 */
function pageParams(ctx: Context, lang: Lang, scope: 'gallery' | 'timeline', sourceKeys: readonly string[], maxOffset: number): { params: SearchParams; shown: Partial<SearchParams>; page: bigint; errors?: FieldError[] } {
  const raw: RawQuery = { lang };
  for (const name of PAGE_PARAMETERS) {
    const value = firstValue(ctx.query[name])?.trim();
    // A blank field (the form sends every field; spaces typed in the search box search nothing) is absent.
    if (value) raw[name] = value;
  }
  const pageText = firstValue(ctx.query.page);
  const page = pageText ? pageNumber(pageText) : 1n;
  const errors: FieldError[] = [];
  if (page === undefined) errors.push({ parameter: 'page', message: 'must be a page number: a whole number from 1' });
  for (const name of NOT_TAKEN) if (firstValue(ctx.query[name])) errors.push({ parameter: name, message: "is not taken by the website's pages (they set it themselves or do not offer it); the API takes it at /api/v1/specimens" });
  raw.limit = String(PAGE_SIZE);
  // A page past the deepest one is still searched (at the deepest offset) for the count its 404 names.
  raw.offset = String(Math.min((Number(page ?? 1n) - 1) * PAGE_SIZE, maxOffset - PAGE_SIZE));
  try {
    const params = parseSearchParams(raw, scope === 'timeline' ? 'timeline' : 'specimens', { fromQueryString: true, exportsHint: '', sourceKeys });
    if (page !== undefined && errors.length === 0) return { params, shown: params, page };
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    errors.unshift(...(error.options.errors ?? []));
  }
  return { params: { lang, limit: PAGE_SIZE, offset: 0 }, shown: {}, page: 1n, errors };
}

/** The years a page offers, newest first: those holding records, and the one asked. */
function offeredYears(facets: Facets, params: SearchParams): string[] {
  const years = Array.from({ length: new Date().getUTCFullYear() - FIRST_YEAR + 1 }, (_, i) => String(FIRST_YEAR + i)).reverse();
  return years.filter((value) => (facets.year[value] ?? 0) > 0 || params.year?.includes(value));
}

/** Runs a record route; a record that moved answers 301 to its current address instead. */
async function followMoves(ctx: Context, route: () => Promise<void>, urlOf: (id: string) => string, maxAgeSeconds: number): Promise<void> {
  try {
    await route();
  } catch (error) {
    if (!(error instanceof RecordMoved)) throw error;
    answerMoved(ctx, error, urlOf, maxAgeSeconds);
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = `Moved to ${String(ctx.response.get('Location'))}\n`;
  }
}

/** The withdrawal a record page shows, in the page's language; throws RecordMoved for a record that moved; undefined when the id was never published. */
async function retiredPage(store: ReadContext['store'], id: string, lang: Lang): Promise<Withdrawal | undefined> {
  try {
    await throwRetired(store, id);
  } catch (error) {
    if (error instanceof ProblemError && error.type === 'gone') {
      const extensions = error.options.extensions as { reason: string; sourceUrl: string; workTitle: Bilingual };
      return { workTitle: extensions.workTitle[lang], reason: extensions.reason, sourceUrl: extensions.sourceUrl };
    }
    if (error instanceof ProblemError && error.type === 'not-found') return undefined;
    throw error;
  }
  return undefined;
}

/** The bilingual website: gallery, timeline, record pages and their Markdown twins, developers page, assets. */
export function webRouter(context: ReadContext, options: WebOptions): Router {
  const router = new Router();
  const { store } = context;
  const maxOffset = Math.min(options.maxOffset ?? MAX_OFFSET, MAX_OFFSET);
  const address = (ctx: Context): SiteAddress => ({ baseUrl: context.baseUrl, path: ctx.url });

  /** Renders (or reuses) a page for this URL at the current catalog version; `render` is told the change number. */
  const page = async (ctx: Context, render: (changeNumber: number) => Promise<{ status: number; html: string }>): Promise<void> => {
    if (readOnly(ctx) === 'handled') return;
    const { changeNumber, key: version } = await options.version();
    const key = `page:${ctx.url}`;
    const cached = options.cache.get(key, version);
    if (cached) {
      ctx.status = 200;
      sendWithEntityTag(ctx, cached.body, cached.etag, 'text/html; charset=utf-8', options.maxAgeSeconds);
      return;
    }
    const { status, html } = await render(changeNumber);
    const etag = entityTag(html);
    if (status === 200) options.cache.set(key, version, { body: html, etag });
    ctx.status = status;
    if (status === 200) sendWithEntityTag(ctx, html, etag, 'text/html; charset=utf-8', options.maxAgeSeconds);
    else {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = html;
    }
  };

  for (const lang of ['zh', 'en'] as const) {
    const prefix = langPrefix(lang);
    for (const scope of ['gallery', 'timeline'] as const) {
      router.all(scope === 'gallery' ? `${prefix}/` : `${prefix}/timeline/`, (ctx) =>
        page(ctx, async (changeNumber) => {
          const sources = await sourceTableOf(context, changeNumber);
          const { params, shown, page: asked, errors } = pageParams(ctx, lang, scope, sources.keys, maxOffset);
          let list: ListResponse = { total: 0, offset: 0, limit: PAGE_SIZE, items: [], next: null };
          let facets: Facets = { format: {}, kind: {}, year: {}, source: {} };
          let years: string[] = [];
          if (!errors) {
            // Each select shows how many records its values hold with the other filters kept.
            list = await listSpecimens(context, { ...params, facets: ['format', 'kind', 'year', 'source'] }, scope === 'timeline' ? 'timeline' : 'specimens');
            facets = { format: {}, kind: {}, year: {}, source: {}, ...list.facets };
            years = offeredYears(facets, params);
          }
          // A page number past the last page (or past the deepest one offsets reach) has no works of
          // its own: a 404 that links the last page, never another page's works under its number.
          const lastPage = pagesOfList(list.total, maxOffset);
          const pastEnd = !errors && asked > BigInt(lastPage) ? { lastPage, asked } : undefined;
          if (pastEnd) list = { ...list, items: [] };
          const html = renderDocument(h(ListPage, { lang, scope, params: shown, list, pages: lastPage, facets, years, sources: sources.definitions, otherLanguagePath: otherLanguage(lang, ctx), ...(errors ? { errors } : {}), ...(pastEnd ? { pastEnd } : {}) }), address(ctx));
          return { status: errors ? 400 : pastEnd ? 404 : 200, html };
        }),
      );
    }
    const recordPage = (ctx: Context) =>
      page(ctx, async (changeNumber) => {
        const id = ctx.params.id ?? '';
        const shown = RECORD_ID_PATTERN.test(id) ? await getSpecimenPage(context, id, lang) : undefined;
        if (!shown) {
          const withdrawn = RECORD_ID_PATTERN.test(id) ? await retiredPage(store, id, lang) : undefined;
          return { status: withdrawn ? 410 : 404, html: renderDocument(h(NotFoundPage, { lang, otherLanguagePath: otherLanguage(lang, ctx), ...(withdrawn ? { withdrawn } : {}) }), address(ctx)) };
        }
        const sourceLabel = (await sourceTableOf(context, changeNumber)).label(shown.record.source, lang);
        return { status: 200, html: renderDocument(h(RecordPage, { record: shown.record, stills: shown.stills, lang, otherLanguagePath: otherLanguage(lang, ctx), baseUrl: context.baseUrl, sourceLabel }), address(ctx)) };
      });
    router.all(`${prefix}/specimens/:id/`, (ctx) => followMoves(ctx, () => recordPage(ctx), (id) => `${context.baseUrl}${prefix}/specimens/${id}/`, options.maxAgeSeconds));
    router.all(`${prefix}/specimens/:id/index.md`, (ctx) => followMoves(ctx, async () => {
      if (readOnly(ctx) === 'handled') return;
      const id = ctx.params.id ?? '';
      const record = RECORD_ID_PATTERN.test(id) ? await getSpecimen(context, id, lang) : undefined;
      if (!record && RECORD_ID_PATTERN.test(id)) await throwRetired(store, id);
      if (!record) throw new ProblemError('not-found', `No record has the id "${id.slice(0, 128)}".`);
      const markdown = recordMarkdown(record, lang);
      sendWithEntityTag(ctx, markdown, entityTag(markdown), 'text/markdown; charset=utf-8', options.maxAgeSeconds);
    }, (id) => `${context.baseUrl}${prefix}/specimens/${id}/index.md`, options.maxAgeSeconds));
    router.all(`${prefix}/developers/`, (ctx) =>
      page(ctx, async () => ({ status: 200, html: renderDocument(h(DevelopersPage, { lang, baseUrl: context.baseUrl, otherLanguagePath: otherLanguage(lang, ctx) }), address(ctx)) })),
    );
    // Pages are folders: the address without its slash redirects to it.
    for (const path of [`${prefix}/timeline`, `${prefix}/developers`, `${prefix}/specimens/:id`, ...(lang === 'en' ? ['/en'] : [])]) {
      router.all(path, async (ctx) => {
        if (readOnly(ctx) === 'handled') return;
        redirectOnSite(ctx, `${ctx.path}/`);
      });
    }
  }

  // Chinese pages live at the root; a reader who types /zh/… is sent there.
  router.all('/zh{/*rest}', async (ctx) => {
    if (readOnly(ctx) === 'handled') return;
    redirectOnSite(ctx, ctx.path.slice(3));
  });

  const assets = new Map<string, { type: string; file: URL }>([
    ['site.css', { type: 'text/css; charset=utf-8', file: new URL('../../web/assets/site.css', import.meta.url) }],
    ['site.js', { type: 'text/javascript; charset=utf-8', file: new URL('../../web/assets/site.js', import.meta.url) }],
    ['icon.svg', { type: 'image/svg+xml', file: new URL('../../web/assets/icon.svg', import.meta.url) }],
  ]);
  router.all('/assets/:name', async (ctx) => {
    if (readOnly(ctx) === 'handled') return;
    const asset = assets.get(ctx.params.name ?? '');
    if (!asset) throw new ProblemError('not-found', 'No such asset.');
    const body = await readFile(asset.file, 'utf8');
    sendWithEntityTag(ctx, body, entityTag(body), asset.type, 300);
  });
  router.all('/favicon.ico', async (ctx) => {
    if (readOnly(ctx) === 'handled') return;
    redirectOnSite(ctx, '/assets/icon.svg');
  });
  return router;
}

/**
 * Whether an error is answered with an HTML page rather than problem+json. For a GET or HEAD
 * outside the API, MCP, media and probe paths (/healthz, /readyz) the Accept header chooses: a reader (a browser, preferring
 * HTML to JSON) gets the page, a program keeps problem+json. When Accept chose, the response says
 * so (`Vary: Accept`, beside what it already varies by, such as Accept-Encoding), so a shared cache
 * never hands a browser's page to a program or a program's problem+json to a browser.
 */
export function negotiateErrorPage(ctx: Context): boolean {
  if (/^\/(api|mcp|media|healthz|readyz|metrics)(\/|$)/.test(ctx.path) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return false;
  ctx.vary('Accept');
  return ctx.accepts('json', 'html') === 'html';
}

/** The language of the page an address asks for: English under /en, Chinese elsewhere. */
function languageOfPath(path: string): Lang {
  return path.startsWith('/en/') || path === '/en' ? 'en' : 'zh';
}

/** The HTML 404 page, for readers (browsers) asking for a page that does not exist. */
export function notFoundHtml(ctx: Context): string {
  const lang = languageOfPath(ctx.path);
  return renderDocument(h(NotFoundPage, { lang, otherLanguagePath: lang === 'zh' ? '/en/' : '/' }));
}

/** The HTML page of an error for readers, in the language of the address asked; undefined for errors that keep problem+json. */
export function problemPageHtml(ctx: Context, problem: ProblemError): string | undefined {
  const reason = problem.type;
  if ((reason !== 'too-many-requests' && reason !== 'service-unavailable') || !negotiateErrorPage(ctx)) return undefined;
  const lang = languageOfPath(ctx.path);
  const retryAfterSeconds = Number(problem.options.headers?.['Retry-After'] ?? 60);
  return renderDocument(h(TryAgainLaterPage, { lang, otherLanguagePath: lang === 'zh' ? '/en/' : '/', retryPath: onSiteAddress(ctx.path, ctx.querystring), retryAfterSeconds, reason }));
}
