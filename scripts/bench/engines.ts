/**
 * The two search engines side by side (BENCH_SEARCH=both, or BENCH_ONLY=engines): one synthetic
 * catalog imported once into the embedded store, then
 * - the embedded engine: its index is built by the import itself (records and FTS5 in one
 *   transaction), so its build time is the import's;
 * - Meilisearch (MEILI_URL, MEILI_API_KEY): both indexes built from that store by `npm run
 *   reindex` under an index prefix of the bench's own, deleted afterwards;
 * - the same distinct-search mix (scripts/bench/queries.ts) against `npm start` on each engine in
 *   turn (embedded search, then ARCHIVE_SEARCH=meili over the same store), one at a time so they
 *   never share the cores: throughput and latency, by query class;
 * - memory: the app's processes after the load, and for Meilisearch its own process too (found by
 *   the port it listens on, or MEILI_PID) with the size of the documents it stores;
 * - agreement: with both apps running, the top 20 of a sample of the same searches from each
 *   (offsets and cursors dropped): shared ids per query, identical sets, identical orders, equal totals.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCatalog } from './catalog-stage.ts';
import { freePort, runLoad, runTsx, startServer, stopServer, treeRss, waitUntilReady, rssMegabytes } from './processes.ts';
import type { Server } from './processes.ts';
import { distinctSearches } from './queries.ts';
import type { SearchPaths } from './queries.ts';
import { number } from './report.ts';
import type { CatalogFacts, LoadResult } from './types.ts';

/** What the engine comparison needs from the runner. */
export interface EngineBenchSettings {
  folder: string;
  records: number;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  /** Distinct searches handed to each engine's load (the same list for both). */
  searches: number;
  /** Searches whose top 20 are compared. */
  agreementSample: number;
  headers?: Record<string, string>;
}

/** One engine's figures. */
export interface EngineRun {
  engine: 'embedded' | 'meilisearch';
  /** Seconds to build the index from the records: the import (embedded), `npm run reindex` (Meilisearch). */
  buildSeconds: number;
  /** Size of what the engine stores for search: FTS5 tables (embedded); the growth of Meilisearch's database over the build (its indexes whole: documents, word and facet databases). */
  indexMegabytes: number;
  /** Meilisearch only: the documents alone, as Meilisearch reports them. */
  documentsMegabytes?: number;
  coldStartSeconds: number;
  load: LoadResult;
  /** The app's processes (primary and workers) after the load. */
  appRssMegabytes: number;
  /** The Meilisearch process, before the build and after the load (undefined when it could not be found). */
  engineRss?: { before: number; after: number };
}

/** Agreement of the two engines' top 20 over one class of searches. */
export interface AgreementRow {
  tag: string;
  queries: number;
  /** Mean of |shared ids| / max(|embedded|, |meilisearch|) per query (1 when both are empty). */
  overlap: number;
  sameSet: number;
  sameOrder: number;
  sameTotal: number;
}

export interface EngineComparison {
  records: number;
  catalog: CatalogFacts;
  meili: { url: string; version: string; prefix: string; pid?: number };
  runs: EngineRun[];
  agreement: AgreementRow[];
}

const MB = 2 ** 20;
const TOP = 20;

/** The Meilisearch to compare with, from MEILI_URL and MEILI_API_KEY. */
function meiliSettings(): { url: string; apiKey?: string } {
  const url = process.env.MEILI_URL?.replace(/\/+$/, '');
  if (!url) throw new Error('the engine comparison (BENCH_SEARCH=both, BENCH_ONLY=engines) needs a Meilisearch: set MEILI_URL (and MEILI_API_KEY)');
  return { url, ...(process.env.MEILI_API_KEY ? { apiKey: process.env.MEILI_API_KEY } : {}) };
}

async function meiliGet<T>(meili: { url: string; apiKey?: string }, path: string): Promise<T> {
  const response = await fetch(`${meili.url}${path}`, { headers: meili.apiKey ? { Authorization: `Bearer ${meili.apiKey}` } : {}, signal: AbortSignal.timeout(30_000) });
  if (!response.ok) throw new Error(`Meilisearch ${path} answered ${response.status}`);
  return (await response.json()) as T;
}

/**
 * The process listening on a loopback TCP port of this machine: the socket's inode from
 * /proc/net/tcp, then the process holding it. MEILI_PID overrides; undefined when not found
 * (another machine, or a process of another user).
 */
export function listenerPid(port: number): number | undefined {
  if (process.env.MEILI_PID) return Number(process.env.MEILI_PID);
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is field 1 (ADDR:PORT), st field 3 (0A = LISTEN), inode field 9.
      if (fields[1]?.endsWith(`:${hexPort}`) && fields[3] === '0A' && fields[9]) inodes.add(`socket:[${fields[9]}]`);
    }
  }
  if (inodes.size === 0) return undefined;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let descriptors: string[];
    try {
      descriptors = readdirSync(join('/proc', entry, 'fd'));
    } catch {
      continue;
    }
    for (const descriptor of descriptors) {
      try {
        if (inodes.has(readlinkSync(join('/proc', entry, 'fd', descriptor)))) return Number(entry);
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}

/** Megabytes of documents Meilisearch reports for the indexes under a prefix, and of its whole database. */
async function meiliSizes(meili: { url: string; apiKey?: string }, prefix: string): Promise<{ documents: number; database: number }> {
  const stats = await meiliGet<{ databaseSize: number; indexes: Record<string, { rawDocumentDbSize?: number }> }>(meili, '/stats');
  const documents = Object.entries(stats.indexes).reduce((sum, [uid, index]) => sum + (uid.startsWith(prefix) ? (index.rawDocumentDbSize ?? 0) : 0), 0);
  return { documents: documents / MB, database: stats.databaseSize / MB };
}

async function dropIndexes(meili: { url: string; apiKey?: string }, prefix: string): Promise<void> {
  const { results } = await meiliGet<{ results: { uid: string }[] }>(meili, '/indexes?limit=1000');
  for (const { uid } of results) {
    if (!uid.startsWith(prefix)) continue;
    await fetch(`${meili.url}/indexes/${uid}`, { method: 'DELETE', headers: meili.apiKey ? { Authorization: `Bearer ${meili.apiKey}` } : {} });
  }
}

/** The top-20 form of a search path: limit 20, no offset or cursor. */
function topPath(path: string): string {
  const [route, query = ''] = path.split('?');
  const params = new URLSearchParams(query);
  params.delete('offset');
  params.delete('cursor');
  params.set('limit', String(TOP));
  return `${route}?${params.toString()}`;
}

async function topOf(origin: string, path: string): Promise<{ total: number; ids: string[] }> {
  const response = await fetch(`${origin}${path}`, { signal: AbortSignal.timeout(30_000) });
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
  const body = (await response.json()) as { total: number; items: { id: string }[] };
  return { total: body.total, ids: body.items.map((item) => item.id) };
}

/** The top 20 of each sampled search from both apps, compared, by query class and over all. */
async function agreement(list: SearchPaths, sample: number, embeddedOrigin: string, meiliOrigin: string): Promise<AgreementRow[]> {
  const rows = new Map<string, AgreementRow>();
  const add = (tag: string, overlap: number, sameSet: boolean, sameOrder: boolean, sameTotal: boolean): void => {
    const row = rows.get(tag) ?? { tag, queries: 0, overlap: 0, sameSet: 0, sameOrder: 0, sameTotal: 0 };
    row.queries += 1;
    row.overlap += overlap;
    row.sameSet += sameSet ? 1 : 0;
    row.sameOrder += sameOrder ? 1 : 0;
    row.sameTotal += sameTotal ? 1 : 0;
    rows.set(tag, row);
  };
  const seen = new Set<string>();
  for (const [i, path] of list.paths.entries()) {
    if (seen.size >= sample) break;
    const top = topPath(path);
    if (seen.has(top)) continue;
    seen.add(top);
    const [a, b] = await Promise.all([topOf(embeddedOrigin, top), topOf(meiliOrigin, top)]);
    const shared = a.ids.filter((id) => b.ids.includes(id)).length;
    const largest = Math.max(a.ids.length, b.ids.length);
    const overlap = largest === 0 ? 1 : shared / largest;
    const sameSet = shared === largest && a.ids.length === b.ids.length;
    const sameOrder = a.ids.join() === b.ids.join();
    for (const tag of [list.tags[i] ?? 'other', 'all']) add(tag, overlap, sameSet, sameOrder, a.total === b.total);
  }
  // By class name, every search together last.
  const ordered = [...rows.values()].sort((a, b) => (a.tag === 'all' ? 1 : b.tag === 'all' ? -1 : a.tag < b.tag ? -1 : 1));
  return ordered.map((row) => ({ ...row, overlap: row.overlap / row.queries, sameSet: row.sameSet / row.queries, sameOrder: row.sameOrder / row.queries, sameTotal: row.sameTotal / row.queries }));
}

/** Starts `npm start` over the data folder with extra settings, and waits for /readyz. */
async function startApp(dataDir: string, extra: Record<string, string>): Promise<{ server: Server; origin: string; coldStartSeconds: number }> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // No publisher: nothing is submitted, and without it the app runs no index sync either (the index is built beforehand).
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', ARCHIVE_DATA_DIR: dataDir, ARCHIVE_BASE_URL: origin, ARCHIVE_DEMO: '0', ARCHIVE_LOG_LEVEL: 'warn', ARCHIVE_RATE_LIMIT_READS: '0', ARCHIVE_PUBLISHER: '0', ...extra };
  const spawned = performance.now();
  const server = startServer(env);
  const coldStartSeconds = await waitUntilReady(server, `${origin}/readyz`, spawned, 300);
  return { server, origin, coldStartSeconds };
}

/** Warm-up, then the distinct mix, against one app. */
async function loadApp(origin: string, settings: EngineBenchSettings, title: string, list: SearchPaths, warmup: string[]): Promise<LoadResult> {
  const base = { url: origin, connections: settings.connections, ...(settings.headers ? { headers: settings.headers } : {}) };
  await runLoad({ ...base, title: `${title} warm-up`, seconds: settings.warmupSeconds, paths: warmup, unique: false });
  return runLoad({ ...base, title, seconds: settings.seconds, paths: list.paths, tags: list.tags, unique: true });
}

/** The whole comparison; Meilisearch's indexes of the run are deleted at the end, whatever happens. */
export async function runEngineComparison(settings: EngineBenchSettings, log: (line: string) => void = console.log): Promise<EngineComparison> {
  const meili = meiliSettings();
  const version = (await meiliGet<{ pkgVersion: string }>(meili, '/version')).pkgVersion;
  const pid = listenerPid(Number(new URL(meili.url).port || 80));
  const prefix = `bench_${randomBytes(4).toString('hex')}_`;
  log(`\n=== engines side by side: ${number(settings.records)} records, embedded FTS5 and Meilisearch ${version} at ${meili.url} (indexes ${prefix}*${pid ? `, process ${pid}` : ', its process not found: no memory figure'}) ===`);
  const dataDir = join(settings.folder, `engines-${settings.records}`);
  const catalog = await prepareCatalog(settings.folder, settings.records, dataDir);
  log(`embedded: imported in ${number(catalog.import.seconds, 1)} s (records and FTS5 index together), index ${number(catalog.indexMegabytes)} MB`);

  const made = distinctSearches(settings.searches + 3000, 20261124);
  const warmup = made.paths.splice(settings.searches);
  made.tags.splice(settings.searches);
  made.uses.splice(settings.searches);
  const meiliEnv = { ARCHIVE_SEARCH: 'meili', MEILI_URL: meili.url, ...(meili.apiKey ? { MEILI_API_KEY: meili.apiKey } : {}), MEILI_INDEX_PREFIX: prefix };
  const runs: EngineRun[] = [];
  let embeddedApp: Awaited<ReturnType<typeof startApp>> | undefined;
  let meiliApp: Awaited<ReturnType<typeof startApp>> | undefined;
  try {
    embeddedApp = await startApp(dataDir, {});
    const embeddedLoad = await loadApp(embeddedApp.origin, settings, 'engines: embedded', made, warmup);
    runs.push({ engine: 'embedded', buildSeconds: catalog.import.seconds, indexMegabytes: catalog.indexMegabytes, coldStartSeconds: embeddedApp.coldStartSeconds, load: embeddedLoad, appRssMegabytes: treeRss(embeddedApp.server.pid).megabytes });
    await stopServer(embeddedApp.server);
    embeddedApp = undefined;

    const rssBefore = pid ? rssMegabytes(pid) : undefined;
    // On a server that others write to meanwhile, the database's growth counts their writes too.
    const sizeBefore = await meiliSizes(meili, prefix);
    const built = await runTsx('scripts/reindex.ts', [], { ...process.env, ARCHIVE_DATA_DIR: dataDir, ARCHIVE_LOG_LEVEL: 'warn', ...meiliEnv });
    const sizeAfter = await meiliSizes(meili, prefix);
    const indexMegabytes = sizeAfter.database - sizeBefore.database;
    log(`meilisearch: npm run reindex in ${number(built.seconds, 1)} s, database grew ${number(indexMegabytes)} MB (documents ${number(sizeAfter.documents)} MB)`);
    meiliApp = await startApp(dataDir, meiliEnv);
    const meiliLoad = await loadApp(meiliApp.origin, settings, 'engines: meilisearch', made, warmup);
    runs.push({
      engine: 'meilisearch',
      buildSeconds: built.seconds,
      indexMegabytes,
      documentsMegabytes: sizeAfter.documents,
      coldStartSeconds: meiliApp.coldStartSeconds,
      load: meiliLoad,
      appRssMegabytes: treeRss(meiliApp.server.pid).megabytes,
      ...(pid && rssBefore !== undefined ? { engineRss: { before: rssBefore, after: rssMegabytes(pid) } } : {}),
    });

    embeddedApp = await startApp(dataDir, {});
    const rows = await agreement(made, settings.agreementSample, embeddedApp.origin, meiliApp.origin);
    return { records: settings.records, catalog, meili: { url: meili.url, version, prefix, ...(pid ? { pid } : {}) }, runs, agreement: rows };
  } finally {
    if (embeddedApp) await stopServer(embeddedApp.server);
    if (meiliApp) await stopServer(meiliApp.server);
    await dropIndexes(meili, prefix);
  }
}

const percent = (share: number): string => `${number(share * 100, 1)} %`;

/** The comparison as tables: one row per engine, then agreement by query class. */
export function printEngineComparison(comparison: EngineComparison, log: (line: string) => void = console.log): void {
  log(`\nengines side by side (${number(comparison.records)} records, Meilisearch ${comparison.meili.version}):`);
  log('  engine        build s  index MB  cold start s   req/s   p50 ms  p99 ms  errors  app RSS MB  engine RSS MB (before → after)');
  for (const run of comparison.runs) {
    const bad = run.load.errors + run.load.non2xx;
    const engineRss = run.engineRss ? `${number(run.engineRss.before)} → ${number(run.engineRss.after)}` : run.engine === 'embedded' ? '(in the app)' : '–';
    log(
      `  ${run.engine.padEnd(12)} ${number(run.buildSeconds, 1).padStart(8)} ${number(run.indexMegabytes).padStart(9)} ${number(run.coldStartSeconds, 1).padStart(13)} ${number(run.load.requestsPerSecond).padStart(7)} ${number(run.load.p50).padStart(8)} ${number(run.load.p99).padStart(7)} ${String(bad).padStart(7)} ${number(run.appRssMegabytes).padStart(11)}  ${engineRss}`,
    );
  }
  const classes = [...new Set(comparison.runs.flatMap((run) => run.load.byTag.map((tag) => tag.tag)))];
  log('  p50 / p99 ms by query class:');
  for (const tag of classes) {
    const cells = comparison.runs.map((run) => {
      const stats = run.load.byTag.find((each) => each.tag === tag);
      return stats ? `${run.engine} ${number(stats.p50)} / ${number(stats.p99)}` : `${run.engine} –`;
    });
    log(`    ${tag.padEnd(8)} ${cells.join('   ')}`);
  }
  log('  agreement of the top 20 (the same searches on both, offsets dropped):');
  log('    class     queries  shared ids  same set  same order  same total');
  for (const row of comparison.agreement) {
    log(`    ${row.tag.padEnd(8)} ${String(row.queries).padStart(8)} ${percent(row.overlap).padStart(11)} ${percent(row.sameSet).padStart(9)} ${percent(row.sameOrder).padStart(11)} ${percent(row.sameTotal).padStart(11)}`);
  }
}
