/** Printing of the benchmark's figures: scenario lines, loud failures, goal checks and the final table. */
import type { LoadResult } from './types.ts';

export interface Facts {
  importRecordsPerSecond: number;
  coldStartSeconds: number;
  rssAfterWarmup: number;
  rssAfterLoad: number;
  processes: number;
}

const number = (value: number, digits = 0): string => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Errors, timeouts and non-2xx answers of a scenario. */
export function badCount(result: LoadResult): number {
  return result.errors + result.timeouts + result.non2xx;
}

function ratio(result: LoadResult, baseline: LoadResult | undefined): string {
  return baseline && baseline.requestsPerSecond > 0 ? `${number(result.requestsPerSecond / baseline.requestsPerSecond, 2)}×` : '–';
}

/** One line per scenario as it finishes, with any failure shouted. */
export function printScenario(name: string, result: LoadResult, baseline: LoadResult | undefined): void {
  console.log(
    `  ${name.padEnd(18)} ${number(result.requestsPerSecond).padStart(8)} req/s  p50 ${number(result.p50, 1)} ms  p99 ${number(result.p99, 1)} ms  ` +
      `max ${number(result.max)} ms  ${number(result.total)} requests  bad ${badCount(result)}  ${ratio(result, baseline)} healthz  (load process ${result.loadCpuPercent}% CPU)`,
  );
  if (result.byTag.length > 1) {
    for (const tag of result.byTag) {
      console.log(`      ${tag.tag.padEnd(8)} ${number(tag.count).padStart(7)} req  p50 ${number(tag.p50, 1)} ms  p99 ${number(tag.p99, 1)} ms  max ${number(tag.max)} ms${tag.bad ? `  BAD ${tag.bad}` : ''}`);
    }
  }
  if (process.env.BENCH_SLOWEST === '1') {
    for (const slow of result.slowest) console.log(`      slow ${number(slow.ms).padStart(6)} ms  ${decodeURIComponent(slow.path)}`);
  }
  if (result.wrapped) console.log(`  !!! ${name}: the distinct list ran out (${number(result.used)} requests handed out); some requests repeated`);
  printFailures(name, result);
}

/** Any error or non-2xx answer is a bug: say so loudly, with samples. */
export function printFailures(name: string, result: LoadResult): void {
  if (badCount(result) === 0) return;
  console.log('');
  console.log(`  !!!!!!!! ${name}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts — this is a bug !!!!!!!!`);
  console.log(`  !!! status codes: ${JSON.stringify(result.statusCodes)}`);
  for (const failure of result.failures) console.log(`  !!! ${failure.status} ${failure.path}\n        ${failure.body.replace(/\s+/g, ' ').slice(0, 300)}`);
  console.log('');
}

interface Goal {
  label: string;
  pass: boolean;
  figure: string;
}

/** The goal lines, PASS or MISS with the measured figure; missing scenarios are skipped. */
export function goals(results: ReadonlyMap<string, LoadResult>, facts: Facts): Goal[] {
  const healthz = results.get('healthz');
  const list: Goal[] = [];
  const distinct = results.get('search-distinct');
  if (distinct) {
    list.push({
      label: 'distinct searches ≥ 1,000 req/s with p99 < 100 ms',
      pass: distinct.requestsPerSecond >= 1000 && distinct.p99 < 100 && badCount(distinct) === 0,
      figure: `${number(distinct.requestsPerSecond)} req/s, p99 ${number(distinct.p99, 1)} ms`,
    });
  }
  const relative = (name: string, label: string, minimum: number): void => {
    const result = results.get(name);
    if (!result || !healthz) return;
    const share = result.requestsPerSecond / healthz.requestsPerSecond;
    list.push({ label, pass: share >= minimum && badCount(result) === 0, figure: `${number(result.requestsPerSecond)} req/s = ${number(share, 2)} × ${number(healthz.requestsPerSecond)}` });
  };
  relative('search-repeated', 'repeated searches ≥ 0.5 × healthz', 0.5);
  relative('record', 'record reads ≥ 0.6 × healthz', 0.6);
  list.push({ label: 'cold start < 15 s', pass: facts.coldStartSeconds < 15, figure: `${number(facts.coldStartSeconds, 2)} s` });
  list.push({ label: 'import > 5,000 records/s', pass: facts.importRecordsPerSecond > 5000, figure: `${number(facts.importRecordsPerSecond)} records/s` });
  return list;
}

export function printGoals(list: readonly Goal[]): void {
  for (const goal of list) console.log(`  ${goal.pass ? 'PASS' : 'MISS'}  ${goal.label.padEnd(52)} ${goal.figure}`);
}

/** The compact table at the end. */
export function printTable(results: ReadonlyMap<string, LoadResult>, facts: Facts): void {
  const healthz = results.get('healthz');
  const rows = [['scenario', 'req/s', 'p50 ms', 'p99 ms', 'bad', '× healthz']];
  for (const [name, result] of results) {
    rows.push([name, number(result.requestsPerSecond), number(result.p50, 1), number(result.p99, 1), String(badCount(result)), ratio(result, healthz)]);
  }
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  for (const row of rows) console.log(`  ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ')}`);
  console.log(
    `  import ${number(facts.importRecordsPerSecond)} records/s · cold start ${number(facts.coldStartSeconds, 2)} s · ` +
      `RSS ${number(facts.rssAfterWarmup)} MB after warm-up, ${number(facts.rssAfterLoad)} MB after load (${facts.processes} processes)`,
  );
}
