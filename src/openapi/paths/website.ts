import { langPrefix } from '../../web/i18n.ts';
import type { Lang } from '../../domain/record.ts';
import { SCHEMAS } from '../../validation/schemas.ts';
import { CACHE_HEADERS, NOT_MODIFIED, operation, pathParameter, problem, redirect, textResponse } from '../responses.ts';
import type { DocContext, JsonObject } from '../responses.ts';

const LANGUAGE = { zh: 'Chinese', en: 'English' } as const;
const SUFFIX = { zh: 'Zh', en: 'En' } as const;
const HTML = 'text/html';

function htmlExample(lang: Lang, title: string): string {
  return `<!doctype html><html lang="${lang === 'zh' ? 'zh-Hans' : 'en'}"><head><meta charset="utf-8"/><title>${title}</title>…</head><body>…</body></html>`;
}

/**
 * The search form's fields: the API's filters plus the page number; other parameters (utm_…) are
 * ignored. The timeline holds timeline records alone, so its kind example is `timeline`.
 */
function pageParameters(kind: 'gallery' | 'timeline'): JsonObject[] {
  const properties = SCHEMAS.searchParams.properties as Record<string, JsonObject>;
  const examples: Record<string, string> = { q: 'pelican', format: 'svg', kind, year: '2025', source: 'x' };
  return [
    ...Object.entries(examples).map(([name, example]) => {
      const { description, ...schema } = properties[name] ?? {};
      return { name, in: 'query', required: false, description, schema, example };
    }),
    { name: 'page', in: 'query', required: false, description: 'Page number, 24 works a page.', schema: { type: 'string', pattern: '^[0-9]{1,4}$' }, example: '2' },
  ];
}

/** The 301 of a record id that moved: to the page (or twin) of the record holding its work now. */
function movedRecord(doc: DocContext, path: string): JsonObject {
  return redirect('The id moved: the same address of the record that holds its work now (query kept).', path.replace('{id}', doc.example.id));
}

function page(doc: DocContext, path: string, operationId: string, summary: string, lang: Lang, options: { parameters?: JsonObject[]; notFound?: string; badFilter?: boolean; retired?: boolean } = {}): JsonObject {
  const responses: Record<string, JsonObject> = {
    200: textResponse(`The page in ${LANGUAGE[lang]}.`, HTML, htmlExample(lang, summary), CACHE_HEADERS),
    304: NOT_MODIFIED,
    405: problem(doc, 405, path),
  };
  if (options.badFilter) responses[400] = textResponse('A filter value is not valid: the page shows a notice.', HTML, htmlExample(lang, summary));
  if (options.notFound) responses[404] = textResponse(options.notFound, HTML, htmlExample(lang, lang === 'zh' ? '页面不存在' : 'Page not found'));
  if (options.retired) {
    responses[301] = movedRecord(doc, path);
    responses[410] = textResponse('The record was withdrawn: a page with the work\'s title, the reason and the original source.', HTML, htmlExample(lang, lang === 'zh' ? '已撤回' : 'Withdrawn'));
  }
  return { get: operation(doc, { path, operationId, summary, tags: ['website'], ...(options.parameters ? { parameters: options.parameters } : {}), responses }) };
}

function slashRedirect(doc: DocContext, path: string, operationId: string, parameters: JsonObject[] = []): JsonObject {
  return {
    get: operation(doc, {
      path,
      operationId,
      summary: 'Pages are folders: the address without its trailing slash redirects to it',
      tags: ['website'],
      usesStore: false,
      ...(parameters.length ? { parameters } : {}),
      responses: { 301: redirect('The same address with a trailing slash (query kept).', `${path.replace('{id}', doc.example.id)}/`), 405: problem(doc, 405, path) },
    }),
  };
}

/** The 404 of a list page past its last page. */
const PAST_THE_END = 'A page past the end of the list: the 404 page, linking the last page and the exports.';

function languagePaths(doc: DocContext, lang: Lang): JsonObject {
  const prefix = langPrefix(lang);
  const suffix = SUFFIX[lang];
  const id = pathParameter('id', 'Record id.', doc.example.id);
  const paths: JsonObject = {
    [`${prefix}/`]: page(doc, `${prefix}/`, `getGalleryPage${suffix}`, `Gallery: search box, filters with counts, 24 works a page (${LANGUAGE[lang]})`, lang, { parameters: pageParameters('gallery'), badFilter: true, notFound: PAST_THE_END }),
    [`${prefix}/timeline/`]: page(doc, `${prefix}/timeline/`, `getTimelinePage${suffix}`, `Timeline of model history, oldest first (${LANGUAGE[lang]})`, lang, { parameters: pageParameters('timeline'), badFilter: true, notFound: PAST_THE_END }),
    [`${prefix}/specimens/{id}/`]: page(doc, `${prefix}/specimens/{id}/`, `getRecordPage${suffix}`, `Record page: preview, facts, source link, citation (${LANGUAGE[lang]})`, lang, { parameters: [id], notFound: 'No record ever had this id: the 404 page.', retired: true }),
    [`${prefix}/specimens/{id}/index.md`]: {
      get: operation(doc, {
        path: `${prefix}/specimens/{id}/index.md`,
        operationId: `getRecordMarkdown${suffix}`,
        summary: `The Markdown twin of a record page (${LANGUAGE[lang]})`,
        tags: ['website'],
        parameters: [id],
        responses: {
          200: textResponse('The record as Markdown.', 'text/markdown', `# ${doc.example.title[lang]}\n\n${doc.example.notes[lang]}\n…\n`, CACHE_HEADERS),
          304: NOT_MODIFIED,
          301: movedRecord(doc, `${prefix}/specimens/{id}/index.md`),
          404: problem(doc, 404, `${prefix}/specimens/{id}/index.md`),
          405: problem(doc, 405, `${prefix}/specimens/{id}/index.md`),
          410: problem(doc, 410, `${prefix}/specimens/{id}/index.md`),
        },
      }),
    },
    [`${prefix}/developers/`]: page(doc, `${prefix}/developers/`, `getDevelopersPage${suffix}`, `For developers: API, MCP, exports, tokens (${LANGUAGE[lang]})`, lang),
    [`${prefix}/timeline`]: slashRedirect(doc, `${prefix}/timeline`, `redirectTimeline${suffix}`),
    [`${prefix}/developers`]: slashRedirect(doc, `${prefix}/developers`, `redirectDevelopers${suffix}`),
    [`${prefix}/specimens/{id}`]: slashRedirect(doc, `${prefix}/specimens/{id}`, `redirectRecordPage${suffix}`, [id]),
  };
  if (lang === 'en') paths['/en'] = slashRedirect(doc, '/en', 'redirectEnglishHome');
  return paths;
}

/** The bilingual website, its assets and the stored media. */
export function websitePaths(doc: DocContext): JsonObject {
  const toRoot = (path: string, operationId: string, parameters: JsonObject[] = []): JsonObject => ({
    get: operation(doc, {
      path,
      operationId,
      summary: 'Chinese pages live at the root: /zh/… redirects to the same page there',
      tags: ['website'],
      usesStore: false,
      ...(parameters.length ? { parameters } : {}),
      responses: { 301: redirect('The same page at the root.', '/timeline/'), 405: problem(doc, 405, path) },
    }),
  });
  const media = doc.example.media[0];
  return {
    ...languagePaths(doc, 'zh'),
    ...languagePaths(doc, 'en'),
    '/zh': toRoot('/zh', 'redirectZhHome'),
    '/zh/{rest}': toRoot('/zh/{rest}', 'redirectZhPage', [pathParameter('rest', 'The rest of the address (may hold slashes).', 'timeline/')]),
    '/assets/{name}': {
      get: operation(doc, {
        path: '/assets/{name}',
        operationId: 'getAsset',
        summary: "The site's stylesheet, script and icon (not rate limited)",
        tags: ['website'],
        rateLimited: false,
        usesStore: false,
        parameters: [pathParameter('name', 'site.css, site.js or icon.svg.', 'site.css', { type: 'string', enum: ['site.css', 'site.js', 'icon.svg'] })],
        responses: {
          200: textResponse('The file.', 'text/css', ':root { … }', CACHE_HEADERS),
          304: NOT_MODIFIED,
          404: problem(doc, 404, '/assets/{name}', { detail: 'No such asset.' }),
          405: problem(doc, 405, '/assets/{name}'),
        },
      }),
    },
    '/favicon.ico': {
      get: operation(doc, { path: '/favicon.ico', operationId: 'getFavicon', summary: 'Redirects to the SVG icon', tags: ['website'], usesStore: false, responses: { 301: redirect('The icon.', '/assets/icon.svg'), 405: problem(doc, 405, '/favicon.ico') } }),
    },
    '/media/{path}': {
      get: operation(doc, {
        path: '/media/{path}',
        operationId: 'getMedia',
        summary: 'A stored preview or its WebP thumbnail (content-addressed, cached for a year)',
        tags: ['website'],
        usesStore: false,
        parameters: [pathParameter('path', 'The path under /media/ that a record\'s media or thumbnail URL names (holds a slash).', media?.thumbnailPath ?? '')],
        responses: {
          200: { description: 'The image, typed by its decoded format.', headers: CACHE_HEADERS, content: { 'image/webp': { schema: { type: 'string', format: 'binary' }, example: '(binary WebP)' }, 'image/png': { schema: { type: 'string', format: 'binary' }, example: '(binary PNG)' } } },
          206: {
            description: 'One byte range of the image, asked for with `Range: bytes=FIRST-LAST` (or `FIRST-`, or `-SUFFIX`); `If-Range` with the ETag held asks for it only of that version. Several ranges, or another unit, are answered with the whole file (200).',
            headers: { ...CACHE_HEADERS, 'Content-Range': { description: 'The range sent and the file\'s size.', schema: { type: 'string' }, example: 'bytes 0-1023/5120' } },
            content: { 'image/png': { schema: { type: 'string', format: 'binary' }, example: '(the first 1,024 bytes)' } },
          },
          304: NOT_MODIFIED,
          404: problem(doc, 404, '/media/{path}', { detail: 'No such media file.' }),
          412: problem(doc, 412, '/media/{path}'),
          416: problem(doc, 416, '/media/{path}', { headers: { 'Content-Range': { description: 'The file\'s size.', schema: { type: 'string' }, example: 'bytes */5120' } } }),
          405: problem(doc, 405, '/media/{path}'),
        },
      }),
    },
  };
}
