/** Printing of the soak scenario: the run, memory per process, the submissions, its goal lines and its summary line. */
import { badCount, number, printScenario } from './report.ts';
import type { Goal } from './report.ts';
import { GROWTH_MEGABYTES, GROWTH_SHARE } from './rss-sampler.ts';
import type { LoadResult, MemoryWindow, SoakResult } from './types.ts';

const label = (window: MemoryWindow): string => (window.role === 'total' ? 'total' : `${window.role} ${window.pid}`);

const growth = (window: MemoryWindow): string => {
  const change = window.lastMegabytes - window.firstMegabytes;
  return `${number(window.firstMegabytes)} → ${number(window.lastMegabytes)} MB (${change >= 0 ? '+' : ''}${number(change, 1)}, allowed +${number(window.allowedMegabytes)})`;
};

/** Whether the soak found a bug: a failed request, a refused submission or one that never became final. */
export function soakFailed(result: SoakResult): boolean {
  return badCount(result.load) > 0 || badCount(result.warmup) > 0 || !result.submissions.allFinal || result.submissions.accepted < result.submissions.planned;
}

const windowsGrew = (result: SoakResult): MemoryWindow[] => result.memory.filter((window) => window.grew);

/** The soak as it finishes: the load by class, memory per process, the submissions, and failures shouted. */
export function printSoak(result: SoakResult, healthz: LoadResult | undefined): void {
  printScenario('soak warm-up', result.warmup, healthz);
  printScenario('soak', result.load, healthz);
  const { submissions } = result;
  console.log(
    `  submissions: ${submissions.accepted} of ${submissions.planned} accepted during the run (+${submissions.warmupAccepted} in the warm-up); when the load stopped ` +
      `${submissions.publishedDuringRun} were published, ${submissions.finalDuringRun} final; all final ${submissions.allFinal ? `${number(submissions.drainSeconds, 1)} s later` : 'NEVER'}: ` +
      `${JSON.stringify(submissions.statuses)}; the catalog gained ${number(submissions.recordsAdded)} records (previews rendered in ${number(result.renderSeconds, 1)} s)`,
  );
  console.log(`  RSS, mean of the first ${result.windowSeconds} s → mean of the last ${result.windowSeconds} s (${result.samples} samples, one a second):`);
  for (const window of result.memory) console.log(`    ${label(window).padEnd(14)} ${growth(window)}  peak ${number(window.peakMegabytes)} MB  CPU ${window.cpuPercent}%${window.grew ? '  GREW' : ''}`);
  console.log('  RSS every 5 s (mean MB), to see whether it levels off:');
  for (const window of result.memory) console.log(`    ${label(window).padEnd(14)} ${window.everyFiveSeconds.map((value) => number(value)).join(' ')}`);
  if (result.processChanges) console.log(`  !!! ${result.processChanges} server process(es) came or went during the run (a worker restarted?)`);
  if (submissions.failures.length || !submissions.allFinal) {
    console.log('');
    console.log(`  !!!!!!!! soak: ${submissions.failedRequests} failed ingest request(s), ${submissions.allFinal ? '' : 'NOT EVERY SUBMISSION BECAME FINAL, '}— this is a bug !!!!!!!!`);
    for (const failure of submissions.failures) console.log(`  !!! ${failure}`);
    console.log('');
  }
}

/** The soak's goal lines: no errors, no memory growth, every submission final. */
export function soakGoals(result: SoakResult | undefined): Goal[] {
  if (!result) return [];
  const bad = badCount(result.load) + result.submissions.failedRequests;
  const badWarmup = badCount(result.warmup);
  const total = result.memory.find((window) => window.role === 'total');
  const grew = windowsGrew(result);
  return [
    {
      label: `soak: zero errors, mixed reads at ${result.connections} connections while publishing`,
      pass: bad === 0 && badWarmup === 0,
      figure: `${number(bad)} bad of ${number(result.load.total)} requests (warm-up: ${number(badWarmup)} of ${number(result.warmup.total)}); ${number(result.load.requestsPerSecond)} req/s, p99 ${number(result.load.p99, 1)} ms`,
    },
    {
      label: `soak: RSS last ${result.windowSeconds} s ≤ first ${result.windowSeconds} s + max(${GROWTH_SHARE * 100} %, ${GROWTH_MEGABYTES} MB/process)`,
      pass: grew.length === 0,
      figure: `${total ? `total ${growth(total)}` : ''}${grew.length ? `; GREW: ${grew.map(label).join(', ')}` : ''}`,
    },
    {
      label: 'soak: every submission reached a final status',
      pass: result.submissions.allFinal && result.submissions.accepted >= result.submissions.planned,
      figure: `${number(result.submissions.publishedDuringRun)} of ${number(result.submissions.planned)} published during the run; ${JSON.stringify(result.submissions.statuses)} after ${number(result.submissions.drainSeconds, 1)} s more`,
    },
  ];
}

/** The soak's line in the summary at the end. */
export function printSoakSummary(result: SoakResult | undefined): void {
  if (!result) return;
  const total = result.memory.find((window) => window.role === 'total');
  console.log(
    `  soak ${result.seconds} s, ${result.connections} connections: ${number(result.load.requestsPerSecond)} req/s · p99 ${number(result.load.p99, 1)} ms · bad ${badCount(result.load)} · ` +
      `${result.submissions.publishedDuringRun}/${result.submissions.planned} published during the run · RSS ${total ? growth(total) : '–'}`,
  );
}
