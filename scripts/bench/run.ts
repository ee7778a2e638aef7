/**
 * Benchmark of the read API, the MCP tool server, the import, duplicate lookup and the publisher,
 * with no arguments. For each catalog size (10,000 and BENCH_RECORDS; with BENCH_RECORDS above
 * 100,000 also 100,000): generates the synthetic catalog, inserts it bare into one FTS5 table (the
 * import's reference), imports it into a temporary data folder (peak RSS, database and index
 * size), starts the server on 127.0.0.1 (cold start), and loads it with autocannon from a separate
 * process. At 100,000 records (or BENCH_RECORDS when smaller) every scenario runs: /healthz, record
 * reads, repeated and distinct searches, MCP calls, each public bulk export once while sampling the
 * server's memory, and the soak (a mixed read load at 100 connections for 60 s while 300
 * submissions are sent over HTTP and published by the server's own publisher from a loopback image
 * server, RSS sampled every second), and the MCP token budgets (mcp-tokens.ts). At the other sizes /healthz, distinct searches and distinct MCP
 * searches run, for the growth table and its plot (an SVG). Then, with the server stopped, it times
 * HashIndex lookups at a million hashes and the real publisher over a loopback image server, each
 * in a child process, and prints every goal with its figure and PASS or MISS; every goal is a ratio
 * of figures taken in this run, or a bound.
 *
 * Environment: BENCH_RECORDS (100000), BENCH_SIZES (catalog sizes, comma-separated, overriding the
 * ones above), BENCH_SECONDS per scenario (10), BENCH_CONNECTIONS (50),
 * BENCH_WARMUP seconds (3), BENCH_DISTINCT_WARMUP seconds of distinct searches before the scenarios
 * that measure them, none of them measured (20; repeated until BENCH_DISTINCT_WARMUP_COUNT of them
 * were answered, 16,000, or five minutes passed), BENCH_ONLY (comma-separated scenarios: healthz, mcp-tokens, record,
 * search-repeated, search-distinct, mcp-distinct, mcp-repeated, exports, soak, hashes, publisher;
 * engines; healthz runs whenever an HTTP scenario does; extra scenarios distinct:word, distinct:pair,
 * distinct:prefix, distinct:typo, distinct:zh, distinct:zhpair, distinct:browse, or distinct:* for all),
 * BENCH_ENCODING (Accept-Encoding to send, none by default; not used by exports, which ask for
 * identity, then gzip once), BENCH_JSON (file for the results as JSON), BENCH_PLOT (the growth
 * plot, bench-data/growth.svg by default),
 * BENCH_SLOWEST=1 (print each scenario's slowest requests), BENCH_HASHES (1000000),
 * BENCH_SUBMISSIONS (100), BENCH_PUBLISHER_RUNS (publisher runs as "concurrency[:models]",
 * comma-separated; default "8,4,8:1", the first is the goal's), BENCH_SOAK_SECONDS (60),
 * BENCH_SOAK_WARMUP seconds (90), BENCH_SOAK_CONNECTIONS (100), BENCH_SOAK_SUBMISSIONS (300),
 * BENCH_SOAK_DRAIN (180: seconds to wait after the soak for its submissions to become final),
 * BENCH_PROFILE_DIR (a folder for V8 CPU profiles of every server process, written as they exit).
 * BENCH_SEARCH=both adds the two search engines side by side at the main size (engines.ts: the
 * same catalog and distinct-search mix on the embedded engine and on the Meilisearch at MEILI_URL
 * with MEILI_API_KEY; MEILI_PID when its process cannot be found by its port; BENCH_AGREEMENT
 * searches compared, 2000); BENCH_ONLY=engines runs that comparison alone.
 * ARCHIVE_WORKERS and ARCHIVE_RESPONSE_CACHE_MB pass through to the server.
 * Exits 1 when any request failed, a distinct scenario repeated a request, any submission was not
 * published (in the soak: not final) or an export was wrong (a bug), 0 otherwise; a MISSed goal
 * alone does not change the exit code.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { prepareCatalog } from './catalog-stage.ts';
import { downloadExport, EXPORT_DOWNLOADS, overallMemory } from './exports.ts';
import { growthPlot } from './plot.ts';
import { cpuSeconds, freePort, processTree, ROOT, runHashes, runLoad, runPublisher, startServer, stopServer, treeRss, waitUntilReady } from './processes.ts';
import type { Server } from './processes.ts';
import { distinctSearches, EXTRA_CLASSES, MCP_HEADERS, MCP_PATH, mcpSearchBodies, QUERY_CLASSES, recordPaths, repeatedSearches, vocabularyCoverage } from './queries.ts';
import type { QueryClass, SearchPaths } from './queries.ts';
import { allPublished, badCount, exportsFailed, goals, growthSeries, MCP_COUNTERPART, printCatalog, printExportDownload, printExportsOverall, printFailures, printGoals, printGrowth, printHashes, printPublisher, printScenario, printTable, repeated } from './report.ts';
import type { Facts, Stage } from './report.ts';
import { printSoak, printSoakSummary, soakFailed, soakGoals } from './report-soak.ts';
import { measureTokens, printTokens } from './mcp-tokens.ts';
import { runSoak, soakSettings, startPreviewServer, warmupSubmissions } from './soak.ts';
import type { PreviewServer } from './soak.ts';
import type { LoadConfig, LoadResult } from './types.ts';
import { setting } from './settings.ts';
import { printEngineComparison, runEngineComparison } from './engines.ts';

const DISTINCT_SEARCHES = 200_000;
const WARMUP_SEARCHES = 3_000;
/** Distinct searches made for the distinct warm-up (none of them measured); at a few thousand a second, enough for a minute. */
const DISTINCT_WARMUP_SEARCHES = 150_000;
/** MCP calls cost more than HTTP searches, so fewer distinct ones suffice; the result says if they ran out. */
const MCP_DISTINCT_SEARCHES = 100_000;
const MCP_WARMUP_SECONDS = 2;
const ID_PAGES = 8;
/** Pause before each scenario, so requests abandoned by the previous one finish first. */
const SETTLE_MS = 1000;
/** The catalog size at which every scenario runs and the main goals are judged. */
const MAIN_RECORDS = 100_000;
/** The smallest size of the growth table. */
const SMALL_RECORDS = 10_000;

const records = setting('BENCH_RECORDS', MAIN_RECORDS);
const seconds = setting('BENCH_SECONDS', 10);
const connections = setting('BENCH_CONNECTIONS', 50);
const warmupSeconds = setting('BENCH_WARMUP', 3);
const distinctWarmupSeconds = setting('BENCH_DISTINCT_WARMUP', 20);
/**
 * Distinct searches the warm-up answers at least, whatever the catalog's size (8,000 a worker on
 * two cores): a warm-up of fixed time warms a server at a million records with thirty times fewer
 * searches than one at 100,000, and would compare a cold server with a warm one.
 */
const distinctWarmupCount = setting('BENCH_DISTINCT_WARMUP_COUNT', 16_000);
const DISTINCT_WARMUP_MAX_MS = 300_000;
const headers = process.env.BENCH_ENCODING ? { 'accept-encoding': process.env.BENCH_ENCODING } : undefined;
const CLASS_SCENARIOS = [...QUERY_CLASSES, ...EXTRA_CLASSES].map((kind) => `distinct:${kind}`);
/** Scenarios against the server, in the order they run (exports after the load scenarios, soak last: its submissions change the catalog). */
const HTTP_SCENARIOS = ['healthz', 'mcp-tokens', 'record', 'search-repeated', 'search-distinct', 'mcp-distinct', 'mcp-repeated', 'exports', 'soak'];
/** The scenarios of the sizes other than the main one: enough for the growth table. */
const GROWTH_SCENARIOS = ['healthz', 'search-distinct', 'mcp-distinct'];
/** Scenarios without the server, run after it stopped. */
const LOCAL_SCENARIOS = ['hashes', 'publisher'];
/** The two search engines side by side (engines.ts): on with BENCH_SEARCH=both, or alone with BENCH_ONLY=engines. */
const ENGINE_SCENARIO = 'engines';
const DEFAULT_PUBLISHER_RUNS = '8,4,8:1';

/** The catalog sizes to measure, ascending, and the main one among them. */
function catalogSizes(): { sizes: number[]; main: number } {
  const given = process.env.BENCH_SIZES;
  const sizes = given
    ? given.split(',').map((size) => Number(size.trim()))
    : [...new Set([Math.min(SMALL_RECORDS, records), Math.min(MAIN_RECORDS, records), records])];
  if (sizes.some((size) => !Number.isInteger(size) || size < 1)) throw new Error(`BENCH_SIZES must list positive integers, got "${given}"`);
  sizes.sort((a, b) => a - b);
  const main = sizes.includes(MAIN_RECORDS) ? MAIN_RECORDS : (sizes.at(-1) as number);
  return { sizes, main };
}

/** The scenarios to run: BENCH_ONLY's choice (healthz first whenever the server runs) or all the main ones. */
function chosenScenarios(): string[] {
  const only = (process.env.BENCH_ONLY ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  const engines = searchEngines() === 'both' ? [ENGINE_SCENARIO] : [];
  if (only.length === 0) return [...HTTP_SCENARIOS, ...engines, ...LOCAL_SCENARIOS];
  const known = [...HTTP_SCENARIOS, ...CLASS_SCENARIOS, ENGINE_SCENARIO, ...LOCAL_SCENARIOS];
  const names = only.flatMap((name) => (name.endsWith('*') ? known.filter((each) => each.startsWith(name.slice(0, -1))) : [name]));
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length) throw new Error(`BENCH_ONLY: unknown scenario ${unknown.join(', ')}; known: ${known.join(', ')}`);
  // The server's scenarios in the order given, then the ones without it, in the order they run.
  const chosen = [...new Set(names.filter((name) => name !== 'healthz' && !LOCAL_SCENARIOS.includes(name))), ...LOCAL_SCENARIOS.filter((name) => names.includes(name))];
  const server = names.includes('healthz') || chosen.some((name) => !LOCAL_SCENARIOS.includes(name) && name !== ENGINE_SCENARIO);
  return server ? ['healthz', ...chosen] : chosen;
}

/** BENCH_SEARCH: the embedded engine alone (default), or both engines side by side (needs MEILI_URL). */
function searchEngines(): 'embedded' | 'both' {
  const value = process.env.BENCH_SEARCH || 'embedded';
  if (value !== 'embedded' && value !== 'both') throw new Error(`BENCH_SEARCH must be embedded or both, got "${value}"`);
  return value;
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  return (await response.json()) as T;
}

/** A few hundred real record ids, from pages spread over the first 10,000 records. */
async function sampleIds(origin: string, total: number): Promise<string[]> {
  const last = Math.max(0, Math.min(total - 50, 10_000));
  const ids = new Set<string>();
  for (let page = 0; page < ID_PAGES; page += 1) {
    const offset = Math.round((last * page) / Math.max(1, ID_PAGES - 1));
    const list = await getJson<{ items: { id: string }[] }>(`${origin}/api/v1/specimens?limit=50&offset=${offset}&lang=en`);
    for (const item of list.items) ids.add(item.id);
  }
  if (ids.size === 0) throw new Error('the catalog returned no records');
  return [...ids];
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let workFolder: string | undefined;
let server: Server | undefined;
let previewServer: PreviewServer | undefined;

async function stopTheServer(): Promise<void> {
  if (!server) return;
  const how = await stopServer(server);
  console.log(`server stopped (${how === 'clean' ? 'clean exit after SIGTERM' : 'KILLED: it did not exit within 15 s of SIGTERM'})`);
  server = undefined;
}

async function cleanUp(): Promise<void> {
  await stopTheServer();
  await previewServer?.close();
  previewServer = undefined;
  if (workFolder) rmSync(workFolder, { recursive: true, force: true });
  workFolder = undefined;
}

/** MCP search calls with distinct arguments that the HTTP distinct mix never asked, so no cache can answer them. */
function mcpDistinctSearches(count: number, asked: ReadonlySet<string>): SearchPaths & { bodies: string[] } {
  const made = distinctSearches(Math.round(count * 1.2), 20261123);
  const chosen: SearchPaths = { paths: [], tags: [], uses: [] };
  for (const [i, path] of made.paths.entries()) {
    if (chosen.paths.length >= count) break;
    if (asked.has(path)) continue;
    chosen.paths.push(path);
    chosen.tags.push(made.tags[i] ?? 'word');
    chosen.uses.push(made.uses[i] ?? []);
  }
  return { ...chosen, bodies: mcpSearchBodies(chosen.paths) };
}

/** Each process of the server's tree (the primary, its workers and helpers) and the CPU seconds it has used so far. */
function cpuByProcess(pid: number): Map<number, number> {
  return new Map(processTree(pid).map((one) => [one, cpuSeconds(one)]));
}

/** The CPU seconds of all of them. */
function totalSeconds(cpu: ReadonlyMap<number, number>): number {
  return [...cpu.values()].reduce((sum, seconds) => sum + seconds, 0);
}

/** The cores each process read in `before` used until `after`, over `seconds` of wall time, busiest first (a process gone counts 0). */
function coresBetween(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>, seconds: number): { pid: number; cores: number }[] {
  return [...before]
    .map(([pid, cpu]) => ({ pid, cores: seconds > 0 ? Math.max(0, (after.get(pid) ?? 0) - cpu) / seconds : 0 }))
    .sort((a, b) => b.cores - a.cores);
}

/** The vocabulary the requests a distinct scenario actually sent drew on, and any repeat, printed. */
function printDistinctness(name: string, result: LoadResult, list: SearchPaths): void {
  const sent = list.uses.slice(0, Math.min(result.used, list.uses.length));
  const coverage = vocabularyCoverage(sent).map((kind) => `${kind.kind} ${kind.used}/${kind.of}`).join(', ');
  const distinct = result.distinct;
  const verdict = distinct ? `${distinct.unique.toLocaleString('en-US')} distinct of ${distinct.sent.toLocaleString('en-US')} sent${repeated(result) ? ` — ${repeated(result)} REPEATED: this is a bug` : ''}` : 'not counted';
  console.log(`      ${name}: ${verdict}; vocabulary used: ${coverage}`);
}

/** One catalog size: catalog and import, the server, the chosen scenarios, the server stopped. */
async function runStage(size: number, scenarios: readonly string[], main: boolean, folder: string): Promise<Stage> {
  const dataDir = join(folder, `data-${size}`);
  console.log(`\n=== ${size.toLocaleString('en-US')} records${main ? ' (every scenario)' : ''} ===`);
  const catalog = await prepareCatalog(folder, size, dataDir);
  printCatalog(catalog);
  const stage: Stage = { records: size, main, catalog, results: new Map(), warmups: [], coverage: [] };

  const soak = main && scenarios.includes('soak') ? soakSettings() : undefined;
  if (soak) {
    previewServer = await startPreviewServer(soak);
    console.log(`soak previews: ${previewServer.renderSeconds.toFixed(1)} s to render, served at http://${previewServer.host}/ for the server's own publisher`);
  }
  // The soak's publisher fetches previews from the loopback image server: allow that host and private addresses.
  const publishing = previewServer ? { ARCHIVE_UPLOAD_HOSTS: previewServer.host, ARCHIVE_ALLOW_PRIVATE_MEDIA: '1' } : {};
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', ARCHIVE_DATA_DIR: dataDir, ARCHIVE_BASE_URL: origin, ARCHIVE_DEMO: '0', ARCHIVE_LOG_LEVEL: 'warn', ARCHIVE_RATE_LIMIT_READS: '0', ARCHIVE_RATE_LIMIT_INGEST: '0', ARCHIVE_INGEST_DAILY_QUOTA: '0', ...publishing };
  const spawned = performance.now();
  server = startServer(env);
  const coldStart = await waitUntilReady(server, `${origin}/readyz`, spawned, 120);
  const ready = await getJson<{ catalog: { total: number } }>(`${origin}/readyz`);
  console.log(`server: pid ${server.pid}, ready in ${coldStart.toFixed(2)} s, ${ready.catalog.total.toLocaleString('en-US')} records, workers ${process.env.ARCHIVE_WORKERS || 'default'}`);
  if (ready.catalog.total !== size) console.log(`!!! the server reports ${ready.catalog.total} records, ${size} were imported`);

  if (main && scenarios.includes('mcp-tokens')) {
    stage.tokens = await measureTokens(origin);
    printTokens(stage.tokens);
  }
  const ids = await sampleIds(origin, ready.catalog.total);
  const recordList = recordPaths(ids);
  const repeatedList = repeatedSearches();
  const made = performance.now();
  const distinct = distinctSearches(DISTINCT_SEARCHES + WARMUP_SEARCHES, 20261122);
  const warmupSearches = distinct.paths.splice(DISTINCT_SEARCHES);
  distinct.tags.splice(DISTINCT_SEARCHES);
  distinct.uses.splice(DISTINCT_SEARCHES);
  const mcpChosen = scenarios.some((name) => name.startsWith('mcp-'));
  const mcp = mcpChosen ? mcpDistinctSearches(MCP_DISTINCT_SEARCHES + WARMUP_SEARCHES, new Set([...distinct.paths, ...warmupSearches])) : { paths: [], tags: [], uses: [], bodies: [] };
  const mcpWarmup = mcp.bodies.splice(MCP_DISTINCT_SEARCHES);
  for (const list of [mcp.paths, mcp.tags, mcp.uses]) list.splice(MCP_DISTINCT_SEARCHES);
  console.log(
    `paths: ${recordList.length} record reads of ${ids.length} ids, ${repeatedList.length} repeated searches, ${distinct.paths.length.toLocaleString('en-US')} distinct searches` +
      `${mcpChosen ? `, ${mcp.bodies.length.toLocaleString('en-US')} distinct MCP calls` : ''} (made in ${((performance.now() - made) / 1000).toFixed(1)} s)`,
  );

  const base = { url: origin, connections, headers };
  const mcpBase = { ...base, headers: { ...headers, ...MCP_HEADERS }, method: 'POST' as const, paths: [MCP_PATH], bodyCheck: 'json-rpc' as const };
  const warmup = await runLoad({ ...base, title: 'warm-up', seconds: warmupSeconds, paths: [...recordList, ...repeatedList, ...warmupSearches], unique: false });
  stage.warmups.push(warmup);
  console.log(`warm-up: ${Math.round(warmup.requestsPerSecond)} req/s over record reads and searches`);
  printFailures('warm-up', warmup);
  if (mcpChosen) {
    const mcpWarm = await runLoad({ ...mcpBase, title: 'mcp warm-up', seconds: Math.min(MCP_WARMUP_SECONDS, warmupSeconds), bodies: [...mcpSearchBodies(repeatedList), ...mcpWarmup], unique: false });
    stage.warmups.push(mcpWarm);
    console.log(`MCP warm-up: ${Math.round(mcpWarm.requestsPerSecond)} req/s over search_specimens calls`);
    printFailures('mcp warm-up', mcpWarm);
  }
  if (scenarios.some((name) => name.includes('distinct'))) {
    // A long-running server has seen many distinct searches: its caches of query parts (row sets,
    // the vocabulary, presented records) are warm. None of these searches is one the scenarios ask.
    const asked = new Set([...distinct.paths, ...mcp.paths]);
    const others = distinctSearches(DISTINCT_WARMUP_SEARCHES, 20261124).paths.filter((path) => !asked.has(path));
    const started = Date.now();
    let answered = 0;
    do {
      const distinctWarm = await runLoad({ ...base, title: 'distinct warm-up', seconds: distinctWarmupSeconds, paths: others.slice(answered), unique: false });
      stage.warmups.push(distinctWarm);
      answered += Math.min(distinctWarm.used, others.length - answered);
      console.log(`distinct warm-up: ${Math.round(distinctWarm.requestsPerSecond)} req/s over ${answered.toLocaleString('en-US')} distinct searches so far, none of them measured`);
      printFailures('distinct warm-up', distinctWarm);
    } while (answered < Math.min(distinctWarmupCount, others.length) && Date.now() - started < DISTINCT_WARMUP_MAX_MS);
  }
  const rssWarm = treeRss(server.pid);
  console.log(`RSS after warm-up: ${rssWarm.megabytes} MB in ${rssWarm.processes} processes (MB each: ${rssWarm.detail})`);

  const lists = new Map<string, SearchPaths>([['search-distinct', distinct], ['mcp-distinct', mcp]]);
  const configs: Record<string, () => LoadConfig> = {
    healthz: () => ({ ...base, title: 'healthz', seconds, paths: ['/healthz'], unique: false }),
    record: () => ({ ...base, title: 'record', seconds, paths: recordList, unique: false }),
    'search-repeated': () => ({ ...base, title: 'search-repeated', seconds, paths: repeatedList, unique: false }),
    'search-distinct': () => ({ ...base, title: 'search-distinct', seconds, paths: distinct.paths, tags: distinct.tags, unique: true }),
    'mcp-distinct': () => ({ ...mcpBase, title: 'mcp-distinct', seconds, bodies: mcp.bodies, tags: mcp.tags, keys: mcp.paths, unique: true }),
    'mcp-repeated': () => ({ ...mcpBase, title: 'mcp-repeated', seconds, bodies: mcpSearchBodies(repeatedList), unique: false }),
  };
  for (const [i, kind] of [...QUERY_CLASSES, ...EXTRA_CLASSES].entries()) {
    const name = `distinct:${kind}`;
    configs[name] = () => {
      const list = distinctSearches(DISTINCT_SEARCHES / 2, 777 + i, [kind as QueryClass]);
      lists.set(name, list);
      return { ...base, title: name, seconds, paths: list.paths, unique: true };
    };
  }

  const load = scenarios.filter((name) => configs[name]);
  console.log(`load (${load.join(', ')}):`);
  for (const name of load) {
    const make = configs[name];
    if (!make) continue;
    await sleep(SETTLE_MS);
    const cpuBefore = cpuByProcess(server.pid);
    const startedAt = performance.now();
    const result = await runLoad(make());
    const cpuAfter = cpuByProcess(server.pid);
    if (result.total > 0) result.serverCpuMicros = ((totalSeconds(cpuAfter) - totalSeconds(cpuBefore)) * 1e6) / result.total;
    result.serverCores = coresBetween(cpuBefore, cpuAfter, (performance.now() - startedAt) / 1000);
    stage.results.set(name, result);
    const http = MCP_COUNTERPART[name];
    const counterpart = http ? stage.results.get(http) : undefined;
    printScenario(name, result, stage.results.get('healthz'), http && counterpart ? { name: http, result: counterpart } : undefined);
    const list = lists.get(name);
    if (list) {
      printDistinctness(name, result, list);
      stage.coverage.push({ scenario: name, kinds: vocabularyCoverage(list.uses.slice(0, result.used)) });
    }
  }
  const rssLoad = treeRss(server.pid);
  console.log(`RSS after load: ${rssLoad.megabytes} MB in ${rssLoad.processes} processes (MB each: ${rssLoad.detail})`);
  if (main && scenarios.includes('exports')) {
    console.log(`exports (one at a time, uncompressed unless marked; RSS of the server's processes sampled every 50 ms):`);
    stage.exports = { total: ready.catalog.total, downloads: [], processes: [] };
    for (const { path, encoding } of EXPORT_DOWNLOADS) {
      await sleep(SETTLE_MS);
      const download = await downloadExport(origin, path, encoding, server.pid, ready.catalog.total);
      stage.exports.downloads.push(download);
      printExportDownload(download);
    }
    stage.exports.processes = overallMemory(stage.exports.downloads);
    printExportsOverall(stage.exports);
  }
  if (soak && previewServer) {
    console.log(
      `soak (mixed reads, searches, timeline, pages and MCP calls at ${soak.connections} connections for ${soak.seconds} s after a ${soak.warmupSeconds} s warm-up, ` +
        `while submissions are sent over HTTP and published throughout (${warmupSubmissions(soak)} in the warm-up, ${soak.submissions} in the run); RSS of the server's processes sampled every second):`,
    );
    await sleep(SETTLE_MS);
    stage.soak = await runSoak({ origin, serverPid: server.pid, env, ids, previews: previewServer }, soak);
    printSoak(stage.soak, stage.results.get('healthz'));
  }
  // The publisher's warning that private media addresses are allowed is expected when the soak runs.
  const serverLines = server.lines.filter((line) => !line.includes('ARCHIVE_ALLOW_PRIVATE_MEDIA'));
  await stopTheServer();
  await previewServer?.close();
  previewServer = undefined;
  rmSync(dataDir, { recursive: true, force: true });
  if (serverLines.length) {
    console.log(`!!! the server wrote ${serverLines.length} line(s) at warn or above; the first:`);
    for (const line of serverLines.slice(0, 10)) console.log(`    ${line.slice(0, 400)}`);
  }
  stage.server = { coldStartSeconds: coldStart, rssAfterWarmup: rssWarm.megabytes, rssAfterLoad: rssLoad.megabytes, processes: rssLoad.processes };
  return stage;
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

async function main(): Promise<number> {
  const began = performance.now();
  const scenarios = chosenScenarios();
  const { sizes, main: mainSize } = catalogSizes();
  const started = new Date();
  console.log(`machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown cpu'}), ${Math.round(totalmem() / 2 ** 30)} GB, node ${process.version}, ${process.platform}/${process.arch}; ${started.toISOString()}`);
  const busy = loadavg()[0] ?? 0;
  console.log(`load average before: ${busy.toFixed(2)}${busy > availableParallelism() / 2 ? ' — the machine was busy in the last minute (other work, or a previous run); figures may be low and noisy' : ''}`);
  const http = scenarios.some((name) => !LOCAL_SCENARIOS.includes(name) && name !== ENGINE_SCENARIO);
  if (http) console.log(`bench: catalogs of ${sizes.map((size) => size.toLocaleString('en-US')).join(', ')} records (every scenario at ${mainSize.toLocaleString('en-US')}), ${connections} connections, ${seconds} s per scenario, warm-up ${warmupSeconds} s, Accept-Encoding ${headers?.['accept-encoding'] ?? 'none'}`);
  console.log(`scenarios: ${scenarios.join(', ')}`);

  const facts: Facts = { stages: [] };
  const problems: string[] = [];
  if (http) {
    workFolder = mkdtempSync(join(tmpdir(), 'archive-bench-'));
    for (const size of sizes) {
      const isMain = size === mainSize;
      const stage = await runStage(size, isMain ? scenarios : scenarios.filter((name) => GROWTH_SCENARIOS.includes(name)), isMain, workFolder);
      facts.stages.push(stage);
      if (stage.exports && exportsFailed(stage.exports)) problems.push(`exports (${size})`);
      if (stage.soak && soakFailed(stage.soak)) problems.push(`soak (${size})`);
    }
  }
  if (scenarios.includes(ENGINE_SCENARIO)) {
    workFolder ??= mkdtempSync(join(tmpdir(), 'archive-bench-'));
    try {
      facts.engines = await runEngineComparison({ folder: workFolder, records: mainSize, connections, seconds, warmupSeconds, searches: DISTINCT_SEARCHES, agreementSample: setting('BENCH_AGREEMENT', 2000), ...(headers ? { headers } : {}) });
      printEngineComparison(facts.engines);
      const failedLoads = facts.engines.runs.filter((run) => badCount(run.load) > 0 || repeated(run.load) > 0);
      if (failedLoads.length) problems.push(`engines (${failedLoads.map((run) => run.engine).join(', ')})`);
    } catch (error) {
      console.log(`  !!!!!!!! the engine comparison failed: ${message(error)}`);
      problems.push('engines');
    }
  }
  if (scenarios.includes('hashes')) {
    console.log('\nduplicate lookup (HashIndex in its own process, server stopped):');
    try {
      facts.hashes = await runHashes();
      printHashes(facts.hashes);
    } catch (error) {
      console.log(`  !!!!!!!! the duplicate lookup benchmark failed: ${message(error)}`);
      problems.push('hashes');
    }
  }
  if (scenarios.includes('publisher')) {
    const runs = process.env.BENCH_PUBLISHER_RUNS || DEFAULT_PUBLISHER_RUNS;
    console.log(`\npublisher (its own process, server stopped; ${setting('BENCH_SUBMISSIONS', 100)} submissions of 3 previews per run; runs ${runs}):`);
    try {
      facts.publisher = await runPublisher({ ...process.env, BENCH_PUBLISHER_RUNS: runs });
      printPublisher(facts.publisher);
      if (!facts.publisher.runs.every(allPublished)) problems.push('publisher');
    } catch (error) {
      console.log(`  !!!!!!!! the publisher benchmark failed: ${message(error)}`);
      problems.push('publisher');
    }
  }

  const mainStage = facts.stages.find((stage) => stage.main);
  const checks = [...goals(facts), ...soakGoals(mainStage?.soak)];
  console.log('\ngoals:');
  printGoals(checks);
  console.log(`load average after: ${(loadavg()[0] ?? 0).toFixed(2)} (1 min)`);
  const setup = http ? `, ${connections} connections, ${seconds} s each` : '';
  console.log(`summary (${availableParallelism()} cores, node ${process.version}${setup}, total run ${((performance.now() - began) / 1000).toFixed(0)} s):`);
  if (mainStage) printTable(mainStage, facts);
  printSoakSummary(mainStage?.soak);
  if (mainStage?.tokens) printTokens(mainStage.tokens);
  if (facts.engines) printEngineComparison(facts.engines);
  if (facts.stages.length) printGrowth(facts.stages);
  if (facts.stages.length > 1) {
    const plotFile = process.env.BENCH_PLOT || join(ROOT, 'bench-data', 'growth.svg');
    mkdirSync(dirname(plotFile), { recursive: true });
    const note = `${availableParallelism()} cores, node ${process.version}, ${connections} connections, ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC, load average ${busy.toFixed(1)} before`;
    writeFileSync(plotFile, growthPlot('Latency of distinct searches against catalog size', note, growthSeries(facts.stages)));
    console.log(`growth plot: ${plotFile}`);
  }
  const failed = facts.stages.flatMap((stage) => [...stage.results.values(), ...stage.warmups].filter((result) => badCount(result) > 0 || repeated(result) > 0).map((result) => `${result.title} (${stage.records})`));
  if (failed.length) console.log(`!!! FAILED REQUESTS OR REPEATS in ${failed.join(', ')}: see above; this is a bug`);
  if (problems.length) console.log(`!!! FAILED: ${problems.join(', ')}: see above; this is a bug`);
  if (process.env.BENCH_JSON) {
    const stages = facts.stages.map((stage) => ({ ...stage, results: Object.fromEntries(stage.results) }));
    writeFileSync(process.env.BENCH_JSON, `${JSON.stringify({ started, sizes, connections, seconds, cores: availableParallelism(), node: process.version, facts: { ...facts, stages }, goals: checks }, null, 2)}\n`);
  }
  await cleanUp();
  return failed.length || problems.length ? 1 : 0;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.log(`\n${signal}: stopping`);
    void cleanUp().finally(() => process.exit(130));
  });
}

main()
  .then((code) => {
    process.exitCode = code;
  })
  .catch(async (error: unknown) => {
    console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
    await cleanUp();
    process.exitCode = 1;
  });
