/**
 * RSS of the server's processes sampled once a second, and the soak's growth rule: the mean of
 * the last window against the mean of the first, per process and in total.
 */
import { cpuSeconds, processTree, rssMegabytes } from './processes.ts';
import type { MemoryWindow } from './types.ts';

/** Growth allowed between the first and the last window: this share of the first mean, or this many MB per process, whichever is larger. */
export const GROWTH_SHARE = 0.1;
export const GROWTH_MEGABYTES = 30;

export interface RssSample {
  atMs: number;
  /** MB by pid. */
  megabytes: Map<number, number>;
  /** CPU seconds used so far, by pid. */
  cpu: Map<number, number>;
}

const mean = (values: readonly number[]): number => (values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : 0);
const round = (value: number): number => Math.round(value * 10) / 10;

export class RssSampler {
  private readonly samples: RssSample[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly primary: number,
    private readonly intervalMs = 1000,
  ) {}

  start(): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private sample(): void {
    const pids = processTree(this.primary);
    this.samples.push({ atMs: Date.now(), megabytes: new Map(pids.map((pid) => [pid, rssMegabytes(pid)])), cpu: new Map(pids.map((pid) => [pid, cpuSeconds(pid)])) });
  }

  /** The samples taken from fromMs (epoch) for the given seconds. */
  during(fromMs: number, seconds: number): RssSample[] {
    return this.samples.filter((sample) => sample.atMs >= fromMs && sample.atMs <= fromMs + seconds * 1000 + this.intervalMs / 2);
  }
}

/** Total MB at each sample. */
const totals = (samples: readonly RssSample[]): number[] => samples.map((sample) => [...sample.megabytes.values()].reduce((sum, value) => sum + value, 0));

/** Means of consecutive runs of `size` values, rounded to MB. */
const meansOf = (values: readonly number[], size: number): number[] =>
  Array.from({ length: Math.ceil(values.length / size) }, (_, i) => Math.round(mean(values.slice(i * size, (i + 1) * size))));

const FIVE_SECONDS = 5;

/** The growth a window of `first` MB may show: the larger of the share and the MB per server process. */
const allowed = (first: number, processes: number): number => Math.max(first * GROWTH_SHARE, GROWTH_MEGABYTES * processes);

/** CPU the process used between its first and its last sample, in % of one core. */
function cpuPercent(samples: readonly RssSample[], pid: number): number {
  const seen = samples.filter((sample) => sample.cpu.has(pid));
  const first = seen[0];
  const last = seen.at(-1);
  if (!first || !last || last.atMs <= first.atMs) return 0;
  return Math.round((((last.cpu.get(pid) ?? 0) - (first.cpu.get(pid) ?? 0)) * 100_000) / (last.atMs - first.atMs));
}

function window(role: MemoryWindow['role'], pid: number, values: readonly number[], windowSeconds: number, processes: number, cpu: number): MemoryWindow {
  const firstMean = mean(values.slice(0, windowSeconds));
  const lastMean = mean(values.slice(-windowSeconds));
  const limit = allowed(firstMean, processes);
  return {
    pid,
    role,
    firstMegabytes: round(firstMean),
    lastMegabytes: round(lastMean),
    peakMegabytes: round(Math.max(0, ...values)),
    allowedMegabytes: round(limit),
    grew: lastMean - firstMean > limit,
    everyFiveSeconds: meansOf(values, FIVE_SECONDS),
    cpuPercent: cpu,
  };
}

/**
 * Each process's and the total's mean RSS over the first and the last windowSeconds of the samples.
 * Node processes other than the primary are HTTP workers; other programs (tsx's esbuild service)
 * are helpers: counted in the total, but they add nothing to the total's allowance.
 */
export function memoryWindows(samples: readonly RssSample[], primary: number, windowSeconds: number, nameOf: (pid: number) => string): MemoryWindow[] {
  const pids = [...new Set(samples.flatMap((sample) => [...sample.megabytes.keys()]))];
  const roleOf = (pid: number): MemoryWindow['role'] => (pid === primary ? 'primary' : nameOf(pid) === 'node' ? 'worker' : 'helper');
  const windows = pids.map((pid) => {
    const values = samples.flatMap((sample) => (sample.megabytes.has(pid) ? [sample.megabytes.get(pid) ?? 0] : []));
    return window(roleOf(pid), pid, values, windowSeconds, 1, cpuPercent(samples, pid));
  });
  const servers = windows.filter((each) => each.role !== 'helper').length;
  windows.push(window('total', 0, totals(samples), windowSeconds, servers, windows.reduce((sum, each) => sum + each.cpuPercent, 0)));
  return windows;
}

/** How many processes were not there for the whole run (a worker that exited and was replaced counts twice). */
export function processChanges(samples: readonly RssSample[]): number {
  const pids = new Set(samples.flatMap((sample) => [...sample.megabytes.keys()]));
  return [...pids].filter((pid) => samples.some((sample) => !sample.megabytes.has(pid))).length;
}
