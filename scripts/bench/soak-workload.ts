/**
 * The soak scenario's mixed read workload: one long list of requests in which record reads,
 * repeated and distinct searches, timeline pages, website pages and MCP tool calls are
 * interleaved in fixed proportions, as a crawler, readers and agents would mix them. Searches and
 * gallery pages with a query never repeat until the list wraps around.
 */
import { distinctSearches, MCP_PATH, recordPaths, repeatedSearches, searchArguments } from './queries.ts';

/** The request classes of the mix, for per-class latency. */
export type SoakClass = 'record' | 'search-repeated' | 'search-distinct' | 'timeline' | 'page' | 'page-query' | 'mcp';

/** Requests per cycle of 20, by class. Pages with a query are few: each counts every facet. */
const CYCLE: readonly SoakClass[] = [
  'record', 'search-distinct', 'search-repeated', 'page', 'record', 'search-distinct', 'timeline', 'record', 'search-distinct', 'mcp',
  'record', 'search-repeated', 'page', 'search-distinct', 'record', 'timeline', 'search-distinct', 'search-repeated', 'page', 'page-query',
];

/** Fixed website pages, in both languages; the later gallery pages exist in any catalog of the bench's sizes. */
const FIXED_PAGES = ['/', '/en/', '/timeline/', '/en/timeline/', '/developers/', '/en/developers/', '/en/timeline/?year=2020', '/?format=game', '/?page=2', '/en/?page=3'];
/** Website page parameters a search path may carry over (the pages take no lang, sort or limit). */
const PAGE_PARAMETERS = ['q', 'format', 'kind', 'year', 'source'];
const TIMELINE_PAGES = 50;
const TIMELINE_PAGE_SIZE = 20;

export interface SoakWorkload {
  paths: string[];
  /** The JSON-RPC body of each MCP call, null for a GET. */
  bodies: (string | null)[];
  tags: SoakClass[];
}

/**
 * A gallery page that asks what a search path asks, on its first page: a later page of a
 * search with few matches is past the end, which the website rightly answers 404.
 */
function galleryPage(searchPath: string): string {
  const query = new URLSearchParams(searchPath.slice(searchPath.indexOf('?') + 1));
  const page = new URLSearchParams();
  for (const name of PAGE_PARAMETERS) {
    const value = query.get(name);
    if (value !== null) page.set(name, value);
  }
  const prefix = query.get('lang') === 'en' ? '/en/' : '/';
  return `${prefix}?${page.toString()}`;
}

/** Timeline API pages, both languages, oldest and newest first. */
function timelinePath(index: number): string {
  const lang = index % 2 === 0 ? 'en' : 'zh';
  const offset = (Math.floor(index / 2) % TIMELINE_PAGES) * TIMELINE_PAGE_SIZE;
  const sort = index % 4 >= 2 ? '&sort=newest' : '';
  return `/api/v1/timeline?lang=${lang}&limit=${TIMELINE_PAGE_SIZE}&offset=${offset}${sort}`;
}

/** The MCP call number index: get_specimen, search_specimens with a fresh query or get_timeline, in turn. */
function mcpBody(index: number, ids: readonly string[], searchPath: string): string {
  const turn = index % 3;
  const call =
    turn === 0
      ? { name: 'get_specimen', arguments: { id: ids[index % ids.length] ?? '', lang: index % 2 === 0 ? 'en' : 'zh' } }
      : turn === 1
        ? { name: 'search_specimens', arguments: searchArguments(searchPath) }
        : { name: 'get_timeline', arguments: { lang: 'en', limit: 10, offset: (index % TIMELINE_PAGES) * 10 } };
  return JSON.stringify({ jsonrpc: '2.0', id: index + 1, method: 'tools/call', params: call });
}

/** count requests of the mix over the given record ids; searches and query pages come from the seed. */
export function soakWorkload(count: number, ids: readonly string[], seed: number): SoakWorkload {
  const perClass = (kind: SoakClass): number => Math.ceil((count * CYCLE.filter((each) => each === kind).length) / CYCLE.length);
  const fresh = distinctSearches(perClass('search-distinct') + perClass('page-query') + perClass('mcp'), seed).paths;
  const records = recordPaths(ids);
  const repeated = repeatedSearches();
  const used = new Map<SoakClass, number>();
  let freshUsed = 0;
  const workload: SoakWorkload = { paths: [], bodies: [], tags: [] };
  for (let i = 0; i < count; i += 1) {
    const kind = CYCLE[i % CYCLE.length] ?? 'record';
    const n = used.get(kind) ?? 0;
    used.set(kind, n + 1);
    let path: string;
    let body: string | null = null;
    if (kind === 'record') path = records[n % records.length] ?? '/healthz';
    else if (kind === 'search-repeated') path = repeated[n % repeated.length] ?? '/healthz';
    else if (kind === 'search-distinct') path = fresh[freshUsed++] ?? '/healthz';
    else if (kind === 'timeline') path = timelinePath(n);
    else if (kind === 'page') path = n % 2 === 0 ? FIXED_PAGES[(n / 2) % FIXED_PAGES.length] ?? '/' : `${n % 4 === 1 ? '/en' : ''}/specimens/${encodeURIComponent(ids[n % ids.length] ?? '')}/`;
    else if (kind === 'page-query') path = galleryPage(fresh[freshUsed++] ?? '/api/v1/specimens?q=pelican');
    else {
      path = MCP_PATH;
      body = mcpBody(n, ids, fresh[freshUsed++] ?? '/api/v1/specimens?q=pelican');
    }
    workload.paths.push(path);
    workload.bodies.push(body);
    workload.tags.push(kind);
  }
  return workload;
}
