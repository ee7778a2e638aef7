/** Printing of the benchmark's figures: scenario lines, loud failures, goal checks and the final table. */
import { availableParallelism } from 'node:os';
import { serverCpuBudget } from './cpu-budget.ts';
import type { EngineComparison } from './engines.ts';
import type { TokenFigures } from './mcp-tokens.ts';
import { FLAT_MEMORY_LIMIT_MB } from './exports.ts';
import type { PlotSeries } from './plot.ts';
import type { CatalogFacts, ExportDownload, ExportsResult, HashesResult, LoadResult, PublisherResult, PublisherRun, SoakResult, StageTime } from './types.ts';

/** The server's figures at one catalog size. */
export interface ServerFacts {
  coldStartSeconds: number;
  rssAfterWarmup: number;
  rssAfterLoad: number;
  processes: number;
}

/** Everything measured at one catalog size. */
export interface Stage {
  records: number;
  /** The size at which every scenario runs and the main goals are judged. */
  main: boolean;
  catalog: CatalogFacts;
  server?: ServerFacts;
  results: Map<string, LoadResult>;
  warmups: LoadResult[];
  /** What the requests each distinct scenario sent drew on, by vocabulary kind. */
  coverage: { scenario: string; kinds: { kind: string; used: number; of: number }[] }[];
  exports?: ExportsResult;
  soak?: SoakResult;
  /** The MCP answers' size in tokens (mcp-tokens.ts). */
  tokens?: TokenFigures;
}

/** Everything measured; a part is missing when it was not run (BENCH_ONLY). */
export interface Facts {
  stages: Stage[];
  hashes?: HashesResult;
  publisher?: PublisherResult;
  /** The two search engines side by side (BENCH_SEARCH=both). */
  engines?: EngineComparison;
}

/** Requests a unique scenario sent more than once (0 when it sent each once, or was not counted). */
export function repeated(result: LoadResult): number {
  return result.distinct ? result.distinct.sent - result.distinct.unique : 0;
}

/** The HTTP scenario an MCP scenario is compared with. */
export const MCP_COUNTERPART: Readonly<Record<string, string>> = { 'mcp-distinct': 'search-distinct', 'mcp-repeated': 'search-repeated' };

/** A figure in en-US digits grouping, with the given fixed decimals. */
export const number = (value: number, digits = 0): string => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Errors (timeouts included: autocannon counts a timeout as an error too), non-2xx answers and failed bodies (JSON-RPC errors, isError results) of a scenario. */
export function badCount(result: LoadResult): number {
  return result.errors + result.non2xx + (result.badBodies ?? 0);
}

function ratio(result: LoadResult, baseline: LoadResult | undefined): string {
  return baseline && baseline.requestsPerSecond > 0 ? `${number(result.requestsPerSecond / baseline.requestsPerSecond, 2)}×` : '–';
}

/** One line per scenario as it finishes, with any failure shouted; an MCP scenario also compared with its HTTP counterpart. */
export function printScenario(name: string, result: LoadResult, baseline: LoadResult | undefined, counterpart?: { name: string; result: LoadResult }): void {
  const versus = counterpart ? `  ${ratio(result, counterpart.result)} ${counterpart.name} (${number(counterpart.result.requestsPerSecond)} req/s, p99 ${number(counterpart.result.p99, 1)} ms)` : '';
  console.log(
    `  ${name.padEnd(18)} ${number(result.requestsPerSecond).padStart(8)} req/s  p50 ${number(result.p50, 1)} ms  p99 ${number(result.p99, 1)} ms  ` +
      `max ${number(result.max)} ms  ${number(result.total)} requests  bad ${badCount(result)}  ${ratio(result, baseline)} healthz${versus}  (load process ${result.loadCpuPercent}% CPU${result.serverCpuMicros === undefined ? '' : `, server ${number(result.serverCpuMicros)} µs CPU a request`})`,
  );
  if (result.serverCores) console.log(`      cores used by the server's processes: ${result.serverCores.map(({ pid, cores }) => `${pid} ${cores.toFixed(2)}`).join(', ')}`);
  if (result.byTag.length > 1) {
    const width = Math.max(8, ...result.byTag.map((tag) => tag.tag.length));
    for (const tag of result.byTag) {
      console.log(`      ${tag.tag.padEnd(width)} ${number(tag.count).padStart(7)} req  p50 ${number(tag.p50, 1)} ms  p99 ${number(tag.p99, 1)} ms  max ${number(tag.max)} ms${tag.bad ? `  BAD ${tag.bad}` : ''}`);
    }
  }
  if (process.env.BENCH_SLOWEST === '1') {
    for (const slow of result.slowest) console.log(`      slow ${number(slow.ms).padStart(6)} ms  ${readable(slow.path)}`);
  }
  if (result.wrapped) console.log(`  !!! ${name}: the distinct list ran out (${number(result.used)} requests handed out); some requests repeated`);
  printFailures(name, result);
}

function readable(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Any error, non-2xx answer or failed body is a bug: say so loudly, with samples. */
export function printFailures(name: string, result: LoadResult): void {
  if (badCount(result) === 0) return;
  console.log('');
  console.log(`  !!!!!!!! ${name}: ${result.non2xx} non-2xx, ${result.badBodies ?? 0} error bodies, ${result.errors} errors (${result.timeouts} of them timeouts) — this is a bug !!!!!!!!`);
  console.log(`  !!! status codes: ${JSON.stringify(result.statusCodes)}`);
  for (const failure of result.failures) {
    console.log(`  !!! ${failure.status} ${readable(failure.path)}${failure.request ? ` ${failure.request}` : ''}\n        ${failure.body.replace(/\s+/g, ' ').slice(0, 300)}`);
  }
  console.log('');
}

const MB = 2 ** 20;

/** The name of a download: its path, and the encoding when compressed. */
export const downloadLabel = (download: ExportDownload): string => `${download.path}${download.encoding === 'gzip' ? ' (gzip)' : ''}`;

/** Whether any download of the exports scenario went wrong (a failure, a wrong count or a malformed body). */
export function exportsFailed(result: ExportsResult): boolean {
  return result.downloads.some((download) => download.problems.length > 0);
}

/** The largest peak RSS increase of a serving process over all downloads, with the download. */
function largestIncrease(result: ExportsResult): ExportDownload | undefined {
  return result.downloads.reduce<ExportDownload | undefined>((top, download) => (!top || download.maxIncreaseMegabytes > top.maxIncreaseMegabytes ? download : top), undefined);
}

/** One download as it finishes: size, time, rates, count, memory of each server process, and problems shouted. */
export function printExportDownload(download: ExportDownload): void {
  const size =
    download.encoding === 'gzip'
      ? `${number(download.bytes / MB, 1)} MB gzip (${number(download.decodedBytes / MB, 1)} MB decoded, ${number((100 * download.bytes) / Math.max(1, download.decodedBytes), 1)}%)`
      : `${number(download.bytes / MB, 1)} MB`;
  const count = download.problems.length ? `${number(download.records)} records` : `${number(download.records)} records = catalog`;
  console.log(
    `  ${downloadLabel(download).padEnd(29)} ${size}  ${number(download.seconds, 2)} s  ${number(download.recordsPerSecond)} records/s  ${number(download.megabytesPerSecond, 1)} MB/s  ` +
      `first byte ${number(download.firstByteSeconds * 1000)} ms  ${count}`,
  );
  const each = download.processes
    .map((one) => `${one.role} ${one.pid} ${number(one.beforeMegabytes)} → ${number(one.peakMegabytes)} (CPU ${number(one.cpuSeconds, 1)} s${one.pid === download.servedBy ? ', served it' : ''})`)
    .join(', ');
  console.log(`      RSS MB before → peak over ${download.samples} samples: ${each}; served by ${download.servedBy}: +${number(download.servedIncreaseMegabytes, 1)} MB, largest increase +${number(download.maxIncreaseMegabytes, 1)} MB`);
  if (download.problems.length) {
    console.log('');
    console.log(`  !!!!!!!! ${downloadLabel(download)}: ${download.problems.join('; ')} — this is a bug !!!!!!!!`);
    console.log('');
  }
}

/** The workers' memory over the whole scenario: garbage of one download may still be resident when the next starts. */
function overallLine(result: ExportsResult): string {
  return result.processes
    .filter((one, _, all) => all.length === 1 || one.role === 'worker')
    .map((one) => `${one.role} ${one.pid} ${number(one.beforeMegabytes)} → ${number(one.peakMegabytes)} MB (+${number(one.peakMegabytes - one.beforeMegabytes, 1)}, CPU ${number(one.cpuSeconds, 1)} s)`)
    .join(', ');
}

/** The serving processes' RSS before the first download against their peak over all of them. */
export function printExportsOverall(result: ExportsResult): void {
  console.log(`  over all downloads, RSS before the first → highest peak: ${overallLine(result)}`);
}

const stageLine = (stage: StageTime): string => `${stage.name.padEnd(48)} ${number(stage.meanMs, 2).padStart(7)} ms × ${stage.calls} = ${number(stage.totalMs)} ms`;

/** The duplicate lookup figures as they come in. */
export function printHashes(result: HashesResult): void {
  console.log(
    `  ${number(result.hashes)} hashes built in ${number(result.buildSeconds, 2)} s; heap +${number(result.heapMegabytes, 1)} MB (ids), array buffers +${number(result.arrayBufferMegabytes, 1)} MB (packed hashes), ` +
      `process RSS ${number(result.rssMegabytes)} MB${result.exactHeap ? '' : ' (no forced GC: heap figures approximate)'}`,
  );
  const line = (label: string, stats: HashesResult['all']): string =>
    `  ${label.padEnd(28)} ${String(stats.count).padStart(4)} lookups  p50 ${number(stats.p50, 2)} ms  p99 ${number(stats.p99, 2)} ms  max ${number(stats.max, 2)} ms  ` +
    `(CPU p99 ${number(stats.cpuP99, 2)} ms, max ${number(stats.cpuMax, 2)} ms; ${number(stats.matches)} matches)`;
  console.log(line(`nearest(·, ${result.maxDistance}), all`, result.all));
  console.log(line('  new hashes (no match)', result.fresh));
  console.log(line('  near copies (≥ 1 match)', result.near));
  console.log(`  (after ${result.warmupLookups} untimed warm-up lookups; the very first took ${number(result.firstLookupMs, 2)} ms; wall far above CPU time means the process waited for a core)`);
}

const runLabel = (run: PublisherRun): string => `concurrency ${run.concurrency}, ${run.models} model${run.models === 1 ? '' : 's'}`;

/** Whether every submission of the run was published. */
export function allPublished(run: PublisherRun): boolean {
  return run.finished && (run.statuses.published ?? 0) === run.submissions;
}

/** The publisher figures as they come in: each run, the store calls, the stages, and loud failures. */
export function printPublisher(result: PublisherResult): void {
  console.log(`  ${number(result.runs[0]?.previews ?? 0)} previews rendered in ${number(result.renderSeconds, 1)} s, closest pair at perceptual distance ${result.closestPreviews}; sharp concurrency ${result.sharpConcurrency}, thread pool ${result.threadPool}`);
  for (const run of result.runs) {
    console.log(
      `  ${runLabel(run).padEnd(28)} ${number(run.submissionsPerSecond, 1).padStart(6)} submissions/s  ${number(run.previewsPerSecond, 1).padStart(6)} previews/s  ` +
        `${number(run.submissions)} in ${number(run.seconds, 2)} s  ${JSON.stringify(run.statuses)}  ${number(run.records)} records  main thread ${Math.round(run.eventLoopUtilization * 100)}% busy, CPU ${run.cpuPercent}%`,
    );
    if (!allPublished(run)) {
      console.log('');
      console.log(`  !!!!!!!! publisher (${runLabel(run)}): ${run.finished ? '' : 'NOT FINISHED in time, '}not every submission was published: ${JSON.stringify(run.statuses)} — this is a bug !!!!!!!!`);
      if (run.sample) {
        console.log(`  !!! ${run.sample.submissionId}: ${run.sample.status}, reason: ${run.sample.reason ?? '–'}`);
        for (const check of run.sample.checks) console.log(`  !!!   ${check.name}: ${check.outcome} — ${check.detail.slice(0, 300)}`);
      }
      console.log('');
    }
    for (const line of run.logLines) console.log(`  !!! the publisher logged: ${line.slice(0, 400)}`);
  }
  const first = result.runs[0];
  if (first) {
    const calls = first.storeCalls.slice(0, 5).map((call) => `${call.name} ${number(call.meanMs, 2)} ms × ${call.calls}`).join(', ');
    console.log(`  SQLite in the first run (${number(first.storeCalls.reduce((sum, call) => sum + call.totalMs, 0))} ms of ${number(first.seconds * 1000)} ms): ${calls}`);
  }
  console.log('  one preview at a time, by stage:');
  for (const stage of result.stages) console.log(`    ${stageLine(stage)}`);
}

/** A goal line: PASS or MISS with the measured figure. */
export interface Goal {
  label: string;
  pass: boolean;
  figure: string;
}

/** Goals at the main size (100,000 records): ratios to /healthz and to the bare insert, taken in the same run. */
const DISTINCT_SHARE_OF_HEALTHZ = 0.3;
const DISTINCT_P99_TIMES_HEALTHZ = 10;
const MCP_SHARE_OF_HTTP = 0.5;
const IMPORT_SHARE_OF_BARE = 0.5;
const COLD_START_SECONDS = 15;
/** Goals at the largest size against the main one. */
const LARGE_SHARE_OF_MAIN = 0.5;
const LARGE_P99_TIMES_MAIN = 3;
const LARGE_IMPORT_RSS_MB = 1536;

const times = (value: number): string => `${number(value, 2)}×`;

/**
 * A throughput goal's CPU budget beside what was spent (see serverCpuBudget): the server CPU a
 * request may use for goalRate to fit on this machine's cores with the load process's share.
 */
function budgetNote(result: LoadResult, goalRate: number): string {
  const budget = serverCpuBudget(result, goalRate, availableParallelism());
  if (!budget) return '';
  return `; at ${number(goalRate)} req/s a request may use ${number(budget.allowedMicros)} µs of server CPU, it used ${number(budget.spentMicros)}`;
}

/** The goal lines, PASS or MISS with the measured figure; missing scenarios are skipped. */
export function goals(facts: Facts): Goal[] {
  const list: Goal[] = [];
  const main = facts.stages.find((stage) => stage.main);
  const largest = facts.stages.at(-1);
  if (main) list.push(...mainGoals(main));
  if (main && largest && largest.records > main.records) list.push(...largeGoals(largest, main));
  const { hashes, publisher } = facts;
  if (hashes) {
    list.push({
      label: `duplicate lookup at ${number(hashes.hashes)} hashes ≤ 10 ms (p99)`,
      pass: hashes.all.p99 <= 10,
      figure: `p50 ${number(hashes.all.p50, 2)} ms, p99 ${number(hashes.all.p99, 2)} ms (CPU ${number(hashes.all.cpuP99, 2)}), max ${number(hashes.all.max, 2)} ms`,
    });
  }
  const run = publisher?.runs[0];
  if (run) {
    list.push({
      label: `publisher ≥ 20 submissions/s with 3 previews each`,
      pass: run.submissionsPerSecond >= 20 && allPublished(run),
      figure: `${number(run.submissionsPerSecond, 1)} submissions/s (${runLabel(run)})${allPublished(run) ? '' : ', NOT ALL PUBLISHED'}`,
    });
  }
  return list;
}

function mainGoals(stage: Stage): Goal[] {
  const at = `${number(stage.records)} records`;
  const list: Goal[] = [];
  const healthz = stage.results.get('healthz');
  const distinct = stage.results.get('search-distinct');
  const mcp = stage.results.get('mcp-distinct');
  for (const [name, result] of stage.results) {
    if (!result.distinct) continue;
    const coverage = stage.coverage.find((entry) => entry.scenario === name)?.kinds ?? [];
    const partial = name === 'search-distinct' || name === 'mcp-distinct' ? coverage.filter((kind) => kind.used < kind.of) : [];
    list.push({
      label: `${name}: no request repeated, the whole vocabulary used`,
      pass: repeated(result) === 0 && !result.wrapped && partial.length === 0,
      figure: `${number(result.distinct.unique)} distinct of ${number(result.distinct.sent)} sent${partial.length ? `; unused: ${partial.map((kind) => `${kind.kind} ${kind.of - kind.used} of ${kind.of}`).join(', ')}` : ''}`,
    });
  }
  if (distinct && healthz) {
    const share = distinct.requestsPerSecond / healthz.requestsPerSecond;
    list.push({
      label: `distinct searches ≥ ${DISTINCT_SHARE_OF_HEALTHZ} × healthz throughput (${at})`,
      pass: share >= DISTINCT_SHARE_OF_HEALTHZ && badCount(distinct) === 0,
      figure: `${number(distinct.requestsPerSecond)} req/s = ${times(share)} ${number(healthz.requestsPerSecond)}${budgetNote(distinct, DISTINCT_SHARE_OF_HEALTHZ * healthz.requestsPerSecond)}`,
    });
    const p99 = distinct.p99 / Math.max(healthz.p99, 1e-9);
    list.push({
      label: `distinct searches p99 ≤ ${DISTINCT_P99_TIMES_HEALTHZ} × healthz p99`,
      pass: p99 <= DISTINCT_P99_TIMES_HEALTHZ,
      figure: `${number(distinct.p99, 1)} ms = ${times(p99)} ${number(healthz.p99, 1)} ms`,
    });
  }
  if (mcp && distinct) {
    const share = mcp.requestsPerSecond / distinct.requestsPerSecond;
    list.push({
      label: `MCP distinct searches ≥ ${MCP_SHARE_OF_HTTP} × HTTP distinct searches`,
      pass: share >= MCP_SHARE_OF_HTTP && badCount(mcp) === 0,
      figure: `${number(mcp.requestsPerSecond)} req/s = ${times(share)} ${number(distinct.requestsPerSecond)}${budgetNote(mcp, MCP_SHARE_OF_HTTP * distinct.requestsPerSecond)}`,
    });
  }
  const relative = (name: string, label: string, minimum: number): void => {
    const result = stage.results.get(name);
    if (!result || !healthz) return;
    const share = result.requestsPerSecond / healthz.requestsPerSecond;
    list.push({ label, pass: share >= minimum && badCount(result) === 0, figure: `${number(result.requestsPerSecond)} req/s = ${times(share)} ${number(healthz.requestsPerSecond)}` });
  };
  relative('search-repeated', 'repeated searches ≥ 0.5 × healthz', 0.5);
  relative('record', 'record reads ≥ 0.6 × healthz', 0.6);
  const { catalog, server } = stage;
  const share = catalog.import.recordsPerSecond / catalog.bare.recordsPerSecond;
  list.push({
    label: `import ≥ ${IMPORT_SHARE_OF_BARE} × a bare FTS5 insert of the same file (${at})`,
    pass: share >= IMPORT_SHARE_OF_BARE,
    figure: `${number(catalog.import.recordsPerSecond)} records/s = ${times(share)} ${number(catalog.bare.recordsPerSecond)}; the goal allows ${number(catalog.bare.seconds / IMPORT_SHARE_OF_BARE, 1)} s, it took ${number(catalog.import.seconds, 1)}`,
  });
  if (server) list.push({ label: `cold start < ${COLD_START_SECONDS} s (${at})`, pass: server.coldStartSeconds < COLD_START_SECONDS, figure: `${number(server.coldStartSeconds, 2)} s` });
  const top = stage.exports ? largestIncrease(stage.exports) : undefined;
  if (stage.exports && top) {
    list.push({
      label: `exports stream with flat memory: peak worker RSS increase ≤ ${FLAT_MEMORY_LIMIT_MB} MB`,
      pass: top.maxIncreaseMegabytes <= FLAT_MEMORY_LIMIT_MB && !exportsFailed(stage.exports),
      figure: `+${number(top.maxIncreaseMegabytes, 1)} MB at most (${downloadLabel(top)})${exportsFailed(stage.exports) ? ', A DOWNLOAD FAILED' : ''}`,
    });
  }
  // MCP token budgets belong here too, once the MCP tools measure them.
  return list;
}

function largeGoals(large: Stage, main: Stage): Goal[] {
  const at = `${number(large.records)} records`;
  const list: Goal[] = [
    {
      label: `${at}: import in flat memory, peak RSS ≤ ${number(LARGE_IMPORT_RSS_MB / 1024, 1)} GB`,
      pass: large.catalog.import.peakRssMegabytes <= LARGE_IMPORT_RSS_MB,
      figure: `${number(large.catalog.import.peakRssMegabytes)} MB (${number(large.catalog.import.recordsPerSecond)} records/s = ${times(large.catalog.import.recordsPerSecond / large.catalog.bare.recordsPerSecond)} bare)`,
    },
  ];
  if (large.server) list.push({ label: `${at}: cold start ≤ ${COLD_START_SECONDS} s`, pass: large.server.coldStartSeconds <= COLD_START_SECONDS, figure: `${number(large.server.coldStartSeconds, 2)} s` });
  const distinct = large.results.get('search-distinct');
  const reference = main.results.get('search-distinct');
  if (distinct && reference) {
    const share = distinct.requestsPerSecond / reference.requestsPerSecond;
    list.push({
      label: `${at}: distinct searches ≥ ${LARGE_SHARE_OF_MAIN} × the ${number(main.records)}-record figure`,
      pass: share >= LARGE_SHARE_OF_MAIN && badCount(distinct) === 0 && repeated(distinct) === 0,
      figure: `${number(distinct.requestsPerSecond)} req/s = ${times(share)} ${number(reference.requestsPerSecond)}`,
    });
    const p99 = distinct.p99 / Math.max(reference.p99, 1e-9);
    list.push({ label: `${at}: distinct searches p99 ≤ ${LARGE_P99_TIMES_MAIN} × the ${number(main.records)}-record p99`, pass: p99 <= LARGE_P99_TIMES_MAIN, figure: `${number(distinct.p99, 1)} ms = ${times(p99)} ${number(reference.p99, 1)} ms` });
  }
  return list;
}

export function printGoals(list: readonly Goal[]): void {
  const width = Math.max(52, ...list.map((goal) => goal.label.length + 1));
  for (const goal of list) console.log(`  ${goal.pass ? 'PASS' : 'MISS'}  ${goal.label.padEnd(width)} ${goal.figure}`);
}

/** The compact table at the end: the main size's scenarios and the figures without the server. */
export function printTable(stage: Stage, facts: Facts): void {
  const { results } = stage;
  const healthz = results.get('healthz');
  const rows = [['scenario', 'req/s', 'p50 ms', 'p99 ms', 'bad', '× healthz', '× HTTP']];
  for (const [name, result] of results) {
    const http = MCP_COUNTERPART[name];
    rows.push([name, number(result.requestsPerSecond), number(result.p50, 1), number(result.p99, 1), String(badCount(result) + repeated(result)), ratio(result, healthz), http ? ratio(result, results.get(http)) : '']);
  }
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  if (results.size) for (const row of rows) console.log(`  ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ')}`);
  const { server, catalog } = stage;
  const { hashes, publisher } = facts;
  if (server) {
    console.log(
      `  ${number(stage.records)} records: import ${number(catalog.import.recordsPerSecond)} records/s (bare ${number(catalog.bare.recordsPerSecond)}) · cold start ${number(server.coldStartSeconds, 2)} s · ` +
        `RSS ${number(server.rssAfterWarmup)} MB after warm-up, ${number(server.rssAfterLoad)} MB after load (${server.processes} processes)`,
    );
  }
  if (hashes) {
    console.log(
      `  duplicate lookup at ${number(hashes.hashes)} hashes (distance ≤ ${hashes.maxDistance}): p50 ${number(hashes.all.p50, 2)} ms · p99 ${number(hashes.all.p99, 2)} ms · max ${number(hashes.all.max, 2)} ms · ` +
        `build ${number(hashes.buildSeconds, 2)} s · heap +${number(hashes.heapMegabytes, 1)} MB, buffers +${number(hashes.arrayBufferMegabytes, 1)} MB`,
    );
  }
  if (stage.exports) console.log(`  exports, RSS before the first download → highest peak: ${overallLine(stage.exports)}`);
  for (const download of stage.exports?.downloads ?? []) {
    console.log(
      `  export ${downloadLabel(download)}: ${number(download.bytes / MB, 1)} MB in ${number(download.seconds, 2)} s · ${number(download.recordsPerSecond)} records/s · ` +
        `${number(download.megabytesPerSecond, 1)} MB/s · worker RSS +${number(download.servedIncreaseMegabytes, 1)} MB · ` +
        `${download.problems.length ? `FAILED: ${download.problems.join('; ')}` : `${number(download.records)} records`}`,
    );
  }
  for (const [i, run] of (publisher?.runs ?? []).entries()) {
    console.log(
      `  publisher${i === 0 ? ' (goal)' : ''}, ${runLabel(run)}: ${number(run.submissionsPerSecond, 1)} submissions/s · ${number(run.previewsPerSecond, 1)} previews/s · ` +
        `${number(run.submissions)} in ${number(run.seconds, 2)} s · ${allPublished(run) ? 'all published' : `NOT ALL PUBLISHED ${JSON.stringify(run.statuses)}`}`,
    );
  }
}

/** One catalog size's import figures as they come in. */
export function printCatalog(catalog: CatalogFacts): void {
  console.log(
    `catalog: ${number(catalog.records)} records, ${number(catalog.catalogMegabytes, 1)} MB, generated in ${number(catalog.generateSeconds, 1)} s; ` +
      `bare FTS5 insert ${number(catalog.bare.recordsPerSecond)} records/s (${number(catalog.bare.seconds, 1)} s, ${number(catalog.bare.megabytes)} MB, peak RSS ${number(catalog.bare.peakRssMegabytes)} MB); ` +
      `import ${number(catalog.import.recordsPerSecond)} records/s = ${times(catalog.import.recordsPerSecond / catalog.bare.recordsPerSecond)} bare (${number(catalog.import.seconds, 1)} s, peak RSS ${number(catalog.import.peakRssMegabytes)} MB); ` +
      `database ${number(catalog.databaseMegabytes)} MB, of it search index ${number(catalog.indexMegabytes)} MB and records ${number(catalog.recordsMegabytes)} MB`,
  );
}

/** How each cost grows with the catalog: one row per size. */
export function printGrowth(stages: readonly Stage[]): void {
  console.log('growth with the catalog:');
  const rows = [['records', 'import/s', '× bare', 'import RSS', 'DB MB', 'index MB', 'cold s', 'healthz/s', 'distinct/s', 'p50 ms', 'p99 ms', '× healthz', 'MCP/s', 'MCP p99']];
  for (const stage of stages) {
    const healthz = stage.results.get('healthz');
    const distinct = stage.results.get('search-distinct');
    const mcp = stage.results.get('mcp-distinct');
    const { catalog } = stage;
    rows.push([
      number(stage.records),
      number(catalog.import.recordsPerSecond),
      times(catalog.import.recordsPerSecond / catalog.bare.recordsPerSecond),
      `${number(catalog.import.peakRssMegabytes)} MB`,
      number(catalog.databaseMegabytes),
      number(catalog.indexMegabytes),
      stage.server ? number(stage.server.coldStartSeconds, 2) : '–',
      healthz ? number(healthz.requestsPerSecond) : '–',
      distinct ? number(distinct.requestsPerSecond) : '–',
      distinct ? number(distinct.p50, 1) : '–',
      distinct ? number(distinct.p99, 1) : '–',
      distinct && healthz ? ratio(distinct, healthz) : '–',
      mcp ? number(mcp.requestsPerSecond) : '–',
      mcp ? number(mcp.p99, 1) : '–',
    ]);
  }
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  for (const row of rows) console.log(`  ${row.map((cell, column) => cell.padStart(widths[column] ?? 0)).join('  ')}`);
}

/** The lines of the growth plot: p50 and p99 of distinct HTTP and MCP searches and of /healthz, by catalog size. */
export function growthSeries(stages: readonly Stage[]): PlotSeries[] {
  const series: PlotSeries[] = [];
  const add = (scenario: string, name: string, color: string): void => {
    for (const [quantile, dashed] of [['p50', false], ['p99', true]] as const) {
      const points = stages.flatMap((stage) => {
        const result = stage.results.get(scenario);
        return result ? [{ records: stage.records, ms: result[quantile] }] : [];
      });
      if (points.length) series.push({ label: `${name} ${quantile}`, color, dashed, points });
    }
  };
  add('search-distinct', 'HTTP distinct', '#c0392b');
  add('mcp-distinct', 'MCP distinct', '#2471a3');
  add('healthz', '/healthz', '#7f8c8d');
  return series;
}
