/**
 * The load process of the benchmark: reads a LoadConfig as JSON on stdin, runs autocannon against
 * the server and prints a LoadResult as JSON on stdout. Runs apart from the runner so the load
 * generator's own work does not share an event loop with anything else.
 */
import autocannon from 'autocannon';
import type { RequestContext } from 'autocannon';
import type { Failure, LoadConfig, LoadResult, TagStats } from './types.ts';

const MAX_FAILURES = 12;
const SLOWEST = 8;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The value at quantile q of ascending numbers. */
function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

const round = (value: number): number => Math.round(value * 100) / 100;

async function main(): Promise<void> {
  const config = JSON.parse(await readStdin()) as LoadConfig;
  if (config.paths.length === 0) throw new Error('no paths to request');
  const tags = config.tags ?? [];
  const latencies = new Map<string, number[]>();
  const badByTag = new Map<string, number>();
  const failures: Failure[] = [];
  const slowest: { index: number; ms: number }[] = [];
  let next = 0;
  const cpuBefore = process.cpuUsage();
  const startedAt = performance.now();

  const result = await autocannon({
    url: config.url,
    title: config.title,
    connections: config.connections,
    duration: config.seconds,
    headers: config.headers,
    requests: [
      {
        method: 'GET',
        setupRequest: (request, context: RequestContext) => {
          const index = next % config.paths.length;
          next += 1;
          context.index = index;
          context.sentAt = performance.now();
          return { ...request, path: config.paths[index] };
        },
        onResponse: (status, body, context) => {
          const index = typeof context.index === 'number' ? context.index : -1;
          const sentAt = typeof context.sentAt === 'number' ? context.sentAt : performance.now();
          const tag = tags[index] ?? config.title;
          const ms = performance.now() - sentAt;
          const list = latencies.get(tag) ?? [];
          list.push(ms);
          latencies.set(tag, list);
          if (slowest.length < SLOWEST || ms > (slowest.at(-1)?.ms ?? 0)) {
            slowest.push({ index, ms });
            slowest.sort((a, b) => b.ms - a.ms);
            slowest.length = Math.min(slowest.length, SLOWEST);
          }
          if (status < 200 || status > 299) {
            badByTag.set(tag, (badByTag.get(tag) ?? 0) + 1);
            if (failures.length < MAX_FAILURES) failures.push({ path: config.paths[index] ?? '?', status, body: body.slice(0, 400) });
          }
        },
      },
    ],
  });

  const cpu = process.cpuUsage(cpuBefore);
  const loadCpuPercent = Math.round(((cpu.user + cpu.system) / 1000 / (performance.now() - startedAt)) * 100);
  const byTag: TagStats[] = [...latencies.entries()]
    .map(([tag, values]) => {
      const sorted = values.sort((a, b) => a - b);
      return { tag, count: sorted.length, p50: round(quantile(sorted, 0.5)), p99: round(quantile(sorted, 0.99)), max: round(sorted.at(-1) ?? 0), bad: badByTag.get(tag) ?? 0 };
    })
    .sort((a, b) => a.tag.localeCompare(b.tag));
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) statusCodes[code] = count;
  const total = Object.values(statusCodes).reduce((sum, count) => sum + count, 0);
  const output: LoadResult = {
    title: config.title,
    requestsPerSecond: round(result.requests.average),
    total,
    seconds: result.duration,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
    used: next,
    wrapped: config.unique && next > config.paths.length,
    byTag,
    failures,
    loadCpuPercent,
    slowest: slowest.map(({ index, ms }) => ({ path: config.paths[index] ?? '?', ms: round(ms) })),
  };
  process.stdout.write(`${JSON.stringify(output)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`load: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
