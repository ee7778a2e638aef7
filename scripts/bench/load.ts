/**
 * The load process of the benchmark: reads a LoadConfig as JSON on stdin, runs autocannon against
 * the server and prints a LoadResult as JSON on stdout. Runs apart from the runner so the load
 * generator's own work does not share an event loop with anything else.
 */
import autocannon from 'autocannon';
import type { RequestContext } from 'autocannon';
import type { BodyCheck, Failure, LoadConfig, LoadResult, TagStats } from './types.ts';

const MAX_FAILURES = 12;
const SLOWEST = 8;

/** The JSON of a JSON-RPC answer, sent as JSON or as server-sent events (the last data line). */
function jsonRpcMessage(body: string): unknown {
  const text = body.trimStart();
  if (text.startsWith('{')) return JSON.parse(text);
  const data = text.split('\n').filter((line) => line.startsWith('data:')).at(-1);
  return data === undefined ? undefined : JSON.parse(data.slice(5));
}

/** Why a 2xx body fails the check, or undefined when it passes. Parses only bodies that look suspect. */
function bodyProblem(check: BodyCheck, body: string): string | undefined {
  if (check === 'none') return undefined;
  if (body.includes('"result"') && !body.includes('"error"') && !body.includes('"isError"')) return undefined;
  let message: unknown;
  try {
    message = jsonRpcMessage(body);
  } catch {
    return 'not JSON';
  }
  if (typeof message !== 'object' || message === null) return 'no JSON-RPC message';
  const answer = message as { error?: unknown; result?: { isError?: unknown } };
  if (answer.error !== undefined) return 'JSON-RPC error';
  if (typeof answer.result !== 'object' || answer.result === null) return 'no result';
  if (answer.result.isError === true) return 'tool result with isError';
  return undefined;
}

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
  const method = config.method ?? 'GET';
  const bodies = config.bodies;
  if (method === 'POST' && !bodies?.some((body) => body !== null)) throw new Error('POST needs bodies');
  const count = bodies?.length ?? config.paths.length;
  const pathOf = (index: number): string => config.paths[config.paths.length === 1 ? 0 : index] ?? '?';
  const bodyOf = (index: number): string | undefined => bodies?.[index] ?? undefined;
  // A fresh header object per request: autocannon writes Content-Length into the one it is given.
  const getHeaders = (): Record<string, string> => ({ ...config.headers });
  const postHeaders = (): Record<string, string> => ({ ...config.headers, ...config.bodyHeaders });
  const check = config.bodyCheck ?? 'none';
  const tags = config.tags ?? [];
  const latencies = new Map<string, number[]>();
  const badByTag = new Map<string, number>();
  const failures: Failure[] = [];
  const slowest: { index: number; ms: number }[] = [];
  let next = 0;
  let badBodies = 0;
  // The distinct requests actually sent, when they must not repeat: the proof, not the list's promise.
  const sentKeys = config.unique ? new Set<string>() : undefined;
  const keyOf = (index: number): string => config.keys?.[index] ?? `${pathOf(index)}\n${bodyOf(index) ?? ''}`;
  const cpuBefore = process.cpuUsage();
  const startedAt = performance.now();
  const startedAtMs = Date.now();

  const result = await autocannon({
    url: config.url,
    title: config.title,
    connections: config.connections,
    duration: config.seconds,
    headers: config.headers,
    requests: [
      {
        method,
        setupRequest: (request, context: RequestContext) => {
          const index = next % count;
          next += 1;
          context.index = index;
          context.sentAt = performance.now();
          sentKeys?.add(keyOf(index));
          const body = bodyOf(index);
          if (body === undefined) return { ...request, method: 'GET', path: pathOf(index), headers: getHeaders(), body: undefined };
          return { ...request, method: 'POST', path: pathOf(index), headers: postHeaders(), body };
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
          const problem = status < 200 || status > 299 ? `status ${status}` : bodyOf(index) === undefined ? undefined : bodyProblem(check, body);
          if (problem !== undefined) {
            if (status >= 200 && status <= 299) badBodies += 1;
            badByTag.set(tag, (badByTag.get(tag) ?? 0) + 1);
            if (failures.length < MAX_FAILURES) {
              const request = bodyOf(index)?.slice(0, 300);
              failures.push({ path: pathOf(index), ...(request === undefined ? {} : { request }), status, body: `${problem}: ${body.slice(0, 400)}` });
            }
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
  // The scenario's latency from every answer's own time, as the classes' is: autocannon's histogram
  // keeps whole milliseconds (it drops the fraction), which at /healthz's p99 of 4-6 ms moved the
  // p99 ratio goal by up to a fifth.
  const every = [...latencies.values()].flat().sort((a, b) => a - b);
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) statusCodes[code] = count;
  const total = Object.values(statusCodes).reduce((sum, count) => sum + count, 0);
  const output: LoadResult = {
    title: config.title,
    startedAtMs,
    requestsPerSecond: round(result.requests.average),
    total,
    seconds: result.duration,
    p50: round(quantile(every, 0.5)),
    p90: round(quantile(every, 0.9)),
    p99: round(quantile(every, 0.99)),
    max: round(every.at(-1) ?? 0),
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    badBodies,
    statusCodes,
    used: next,
    wrapped: config.unique && next > count,
    ...(sentKeys ? { distinct: { sent: next, unique: sentKeys.size } } : {}),
    byTag,
    failures,
    loadCpuPercent,
    slowest: slowest.map(({ index, ms }) => ({ path: `${pathOf(index)} ${bodyOf(index) ?? ''}`.trim(), ms: round(ms) })),
  };
  process.stdout.write(`${JSON.stringify(output)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`load: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
