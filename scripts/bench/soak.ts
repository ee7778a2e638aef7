/**
 * The soak scenario: a mixed read workload at 100 connections from the load process while works
 * are submitted over HTTP and published by the server's own publisher, fetching their previews
 * from a loopback image server. Samples the server's RSS once a second and follows every
 * submission to a final status.
 */
import type { Server as HttpServer } from 'node:http';
import { FINAL_STATUSES } from '../../src/domain/submission.ts';
import type { SubmissionStatus } from '../../src/domain/submission.ts';
import { commandName, runLoad, runTsx } from './processes.ts';
import { MCP_HEADERS } from './queries.ts';
import { memoryWindows, processChanges, RssSampler } from './rss-sampler.ts';
import { soakWorkload } from './soak-workload.ts';
import type { LoadConfig, SoakResult, SoakSubmissions } from './types.ts';
import { setting } from './settings.ts';
import { benchSubmission, closeServer, PREVIEWS_PER_SUBMISSION, previewUrl, renderPreviews, serve } from './works.ts';

/** The soak's settings, from BENCH_SOAK_* (see the head of run.ts). */
export interface SoakSettings {
  seconds: number;
  warmupSeconds: number;
  connections: number;
  submissions: number;
  /** Seconds to wait after the load for the last submissions to become final. */
  drainSeconds: number;
}

export function soakSettings(): SoakSettings {
  return {
    seconds: setting('BENCH_SOAK_SECONDS', 60),
    warmupSeconds: setting('BENCH_SOAK_WARMUP', 90),
    connections: setting('BENCH_SOAK_CONNECTIONS', 100),
    submissions: setting('BENCH_SOAK_SUBMISSIONS', 300),
    drainSeconds: setting('BENCH_SOAK_DRAIN', 180),
  };
}

/** Submissions per POST /api/v1/ingest/batch. */
const BATCH_SIZE = 10;
const MODELS = 10;
/** More requests in the list than the server answers in the time at the rates seen, so searches never repeat. */
const REQUESTS_PER_SECOND_CEILING = 4000;
const WINDOW_SECONDS = 10;
const STATUS_REQUESTS_AT_ONCE = 8;
const SOURCE_OWNER = 'bench-soak';
const TOKEN_NAME = 'bench-soak';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Submissions of the warm-up: the run's rate over the warm-up's seconds. Publishing goes on from the
 * start of the warm-up to the end of the run, so both measured windows see the state the writes
 * keep the processes in: the publisher's image libraries busy, and in each worker row sets emptied
 * and cached responses made stale by every write. A quiet stretch before or after would let caches
 * fill in one window that the other saw emptied.
 */
export const warmupSubmissions = (settings: SoakSettings): number => Math.ceil((settings.submissions * settings.warmupSeconds) / settings.seconds);

/** The loopback image server with every preview the soak submits, started before the archive so it can be named in ARCHIVE_UPLOAD_HOSTS. */
export interface PreviewServer {
  host: string;
  renderSeconds: number;
  close(): Promise<void>;
}

export async function startPreviewServer(settings: SoakSettings): Promise<PreviewServer> {
  const started = performance.now();
  const { previews } = await renderPreviews((warmupSubmissions(settings) + settings.submissions) * PREVIEWS_PER_SUBMISSION);
  const renderSeconds = (performance.now() - started) / 1000;
  const { server, host } = await serve(previews);
  const running: HttpServer = server;
  return { host, renderSeconds, close: () => closeServer(running) };
}

/** An ingest token made with `npm run tokens` against the server's data folder (it works while the server runs). */
async function createToken(env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout } = await runTsx('scripts/tokens.ts', ['create', '--name', TOKEN_NAME, '--scope', 'ingest'], env);
  const secret = stdout.trim().split('\n').at(-1)?.trim() ?? '';
  if (!secret.startsWith('mwa_')) throw new Error(`npm run tokens printed no secret: ${stdout}`);
  return secret;
}

/** Sends submissions over HTTP and follows them. */
class Submitter {
  readonly ids: string[] = [];
  failedRequests = 0;
  readonly failures: string[] = [];

  constructor(
    private readonly origin: string,
    private readonly token: string,
    private readonly host: string,
  ) {}

  /** POSTs submissions first … first + count - 1 as one batch; returns how many were accepted. */
  async submit(first: number, count: number): Promise<number> {
    const submissions = Array.from({ length: count }, (_, k) => {
      const i = first + k;
      const urls = Array.from({ length: PREVIEWS_PER_SUBMISSION }, (__, p) => previewUrl(this.host, i * PREVIEWS_PER_SUBMISSION + p));
      return benchSubmission(i, MODELS, urls, SOURCE_OWNER);
    });
    try {
      const response = await fetch(`${this.origin}/api/v1/ingest/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json', 'user-agent': 'archive-bench/1 (+scripts/bench soak)' },
        body: JSON.stringify({ submissions }),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      const answer = response.status === 202 ? (JSON.parse(text) as { accepted: number; items: { submissionId?: string }[] }) : undefined;
      const ids = answer?.items.flatMap((item) => (item.submissionId ? [item.submissionId] : [])) ?? [];
      this.ids.push(...ids);
      if (ids.length !== count) this.fail(`POST /api/v1/ingest/batch answered ${response.status} with ${ids.length} of ${count} accepted: ${text.slice(0, 300)}`);
      return ids.length;
    } catch (error) {
      this.fail(`POST /api/v1/ingest/batch failed: ${error instanceof Error ? error.message : String(error)}`);
      return 0;
    }
  }

  private fail(message: string): void {
    this.failedRequests += 1;
    if (this.failures.length < 5) this.failures.push(message);
  }

  /** The status of each of the given submissions, a few requests at a time; an unanswered one counts as "unknown". */
  async statuses(ids: readonly string[]): Promise<(SubmissionStatus | 'unknown')[]> {
    const result: (SubmissionStatus | 'unknown')[] = [];
    for (let i = 0; i < ids.length; i += STATUS_REQUESTS_AT_ONCE) {
      const part = await Promise.all(
        ids.slice(i, i + STATUS_REQUESTS_AT_ONCE).map(async (id) => {
          try {
            const response = await fetch(`${this.origin}/api/v1/ingest/${id}`, { headers: { authorization: `Bearer ${this.token}` }, signal: AbortSignal.timeout(10_000) });
            if (response.status !== 200) {
              await response.arrayBuffer();
              return 'unknown' as const;
            }
            return ((await response.json()) as { status: SubmissionStatus }).status;
          } catch {
            return 'unknown' as const;
          }
        }),
      );
      result.push(...part);
    }
    return result;
  }
}

const isFinal = (status: SubmissionStatus | 'unknown'): boolean => status !== 'unknown' && FINAL_STATUSES.includes(status);

function countStatuses(statuses: readonly (SubmissionStatus | 'unknown')[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** Sends submissions first … first + count - 1 in batches spread evenly over the given seconds, while the load runs. */
async function submitSpread(submitter: Submitter, first: number, count: number, seconds: number, running: () => boolean): Promise<number> {
  const batches = Math.ceil(count / BATCH_SIZE);
  const intervalMs = (seconds * 1000) / batches;
  const started = performance.now();
  let accepted = 0;
  for (let batch = 0; batch < batches && running(); batch += 1) {
    const wait = started + batch * intervalMs - performance.now();
    if (wait > 0) await sleep(wait);
    const from = first + batch * BATCH_SIZE;
    accepted += await submitter.submit(from, Math.min(BATCH_SIZE, first + count - from));
  }
  return accepted;
}

async function catalogTotal(origin: string): Promise<number> {
  const response = await fetch(`${origin}/readyz`, { signal: AbortSignal.timeout(10_000) });
  return ((await response.json()) as { catalog: { total: number } }).catalog.total;
}

export interface SoakTarget {
  origin: string;
  serverPid: number;
  /** The server's environment, for `npm run tokens` against its data folder. */
  env: NodeJS.ProcessEnv;
  /** Record ids to read. */
  ids: readonly string[];
  previews: PreviewServer;
}

/** Runs the warm-up and the measured run, then waits for the submissions to become final. */
export async function runSoak(target: SoakTarget, settings: SoakSettings): Promise<SoakResult> {
  const { origin, serverPid, ids } = target;
  const submitter = new Submitter(origin, await createToken(target.env), target.previews.host);
  const recordsBefore = await catalogTotal(origin);
  const base = { url: origin, connections: settings.connections, bodyHeaders: { ...MCP_HEADERS }, bodyCheck: 'json-rpc' as const, unique: true };
  const config = (title: string, seconds: number, seed: number): LoadConfig => {
    const workload = soakWorkload(REQUESTS_PER_SECOND_CEILING * seconds, ids, seed);
    return { ...base, title, seconds, paths: workload.paths, bodies: workload.bodies, tags: workload.tags };
  };

  // Both lists are made first, so no pause without load lies between the warm-up and the run.
  const warmupConfig = config('soak warm-up', settings.warmupSeconds, 4242);
  const runConfig = config('soak', settings.seconds, 20261124);
  const warmupCount = warmupSubmissions(settings);
  let warming = true;
  const warmingUp = runLoad(warmupConfig).finally(() => (warming = false));
  const [warmup, warmupAccepted] = await Promise.all([warmingUp, submitSpread(submitter, 0, warmupCount, settings.warmupSeconds, () => warming)]);

  const sampler = new RssSampler(serverPid);
  sampler.start();
  let running = true;
  const loading = runLoad(runConfig).finally(() => (running = false));
  const [load, accepted] = await Promise.all([loading, submitSpread(submitter, warmupCount, settings.submissions, settings.seconds, () => running)]);
  sampler.stop();

  const runIds = submitter.ids.slice(warmupAccepted);
  const atEnd = await submitter.statuses(runIds);
  const stopped = performance.now();
  let statuses = await submitter.statuses(submitter.ids);
  while (!statuses.every(isFinal) && (performance.now() - stopped) / 1000 < settings.drainSeconds) {
    await sleep(1000);
    statuses = await submitter.statuses(submitter.ids);
  }
  const drainSeconds = (performance.now() - stopped) / 1000;

  const samples = sampler.during(load.startedAtMs, load.seconds);
  const windowSeconds = Math.max(1, Math.min(WINDOW_SECONDS, Math.floor(samples.length / 2)));
  const submissions: SoakSubmissions = {
    planned: settings.submissions,
    accepted,
    warmupAccepted,
    failedRequests: submitter.failedRequests,
    failures: submitter.failures,
    publishedDuringRun: atEnd.filter((status) => status === 'published').length,
    finalDuringRun: atEnd.filter(isFinal).length,
    statuses: countStatuses(statuses),
    allFinal: statuses.every(isFinal) && submitter.failedRequests === 0,
    drainSeconds: Math.round(drainSeconds * 10) / 10,
    recordsAdded: (await catalogTotal(origin)) - recordsBefore,
  };
  return {
    seconds: settings.seconds,
    warmupSeconds: settings.warmupSeconds,
    connections: settings.connections,
    warmup,
    load,
    submissions,
    windowSeconds,
    samples: samples.length,
    memory: memoryWindows(samples, serverPid, windowSeconds, commandName),
    processChanges: processChanges(samples),
    renderSeconds: Math.round(target.previews.renderSeconds * 10) / 10,
  };
}
