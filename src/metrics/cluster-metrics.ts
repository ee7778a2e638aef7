import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import type { Registry } from 'prom-client';
import { RetiredTotals } from './retired-totals.ts';
import type { GatheredMetric } from './retired-totals.ts';

const ASK = 'archive:metrics-ask';
const ANSWER = 'archive:metrics-answer';

/** How long a scrape waits for every worker's answer before it fails (503). */
const ANSWER_TIMEOUT_MS = 5000;

interface MetricsAsk {
  type: typeof ASK;
  id: number;
}

type MetricsAnswer = { type: typeof ANSWER; id: number } & ({ metrics: GatheredMetric[] } | { error: string });

function isAsk(message: unknown): message is MetricsAsk {
  return (message as MetricsAsk | undefined)?.type === ASK;
}

function isAnswer(message: unknown): message is MetricsAnswer {
  return (message as MetricsAnswer | undefined)?.type === ANSWER;
}

/** In an HTTP worker: answers the primary's requests for this worker's metrics over the cluster's IPC channel. */
export function shareWorkerMetrics(registry: Registry): void {
  process.on('message', (message: unknown) => {
    if (!isAsk(message)) return;
    void listMetrics(registry, message.id).then((answer) => {
      if (process.connected) process.send?.(answer);
    });
  });
}

async function listMetrics(registry: Registry, id: number): Promise<MetricsAnswer> {
  try {
    // prom-client's typings call `type` an enum; what it lists is its name (`counter`, …).
    const metrics = (await registry.getMetricsAsJSON()) as unknown as GatheredMetric[];
    return { type: ANSWER, id, metrics };
  } catch (error) {
    return { type: ANSWER, id, error: error instanceof Error ? error.message : String(error) };
  }
}

/** A scrape waiting for the workers asked. */
interface Gathering {
  id: number;
  waitingFor: Set<number>;
  settle(error?: Error): void;
}

/**
 * In the cluster primary: every worker's metrics, aggregated by prom-client (counters and
 * histograms summed, RSS summed, …), followed by the primary's own registry (the publisher and
 * the primary process). The two never hold a metric of the same name.
 *
 * The sums never go down while the primary lives: it keeps each worker's metrics from the last
 * scrape, and when a worker exits, adds its counters and histograms (not its gauges) from then
 * into retired totals that every later scrape includes. What a worker counted after the last
 * scrape and before it died is lost, but no scrape had shown it.
 */
export class ClusterMetrics {
  private readonly lastGathered = new Map<number, GatheredMetric[]>();
  private readonly retired = new RetiredTotals();
  private nextId = 1;
  private gathering: Gathering | undefined;
  private scrape: Promise<string> | undefined;

  constructor(private readonly primary: Registry) {
    cluster.on('message', (worker: Worker, message: unknown) => {
      if (isAnswer(message)) this.answered(worker, message);
    });
    cluster.on('exit', (worker: Worker) => this.exited(worker));
  }

  /** The text of one scrape. Scrapes that arrive while one is gathering share its answer. */
  readonly gather = (): Promise<string> => {
    this.scrape ??= this.gatherOnce().finally(() => {
      this.scrape = undefined;
    });
    return this.scrape;
  };

  private async gatherOnce(): Promise<string> {
    await this.askWorkers();
    const workers = AggregatorRegistry.aggregate([...this.lastGathered.values(), this.retired.metrics()]);
    const [workersText, own] = await Promise.all([workers.metrics(), this.primary.metrics()]);
    return `${workersText.trimEnd()}\n\n${own}`;
  }

  /** Asks every connected worker for its metrics and resolves once each has answered or exited. */
  private askWorkers(): Promise<void> {
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker?.isConnected() === true);
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => gathering.settle(new Error(`a worker did not answer for its metrics within ${ANSWER_TIMEOUT_MS} ms`)), ANSWER_TIMEOUT_MS);
      const gathering: Gathering = {
        id,
        waitingFor: new Set(workers.map((worker) => worker.id)),
        settle: (error) => {
          clearTimeout(timer);
          if (this.gathering === gathering) this.gathering = undefined;
          if (error) reject(error);
          else resolve();
        },
      };
      this.gathering = gathering;
      const ask: MetricsAsk = { type: ASK, id };
      for (const worker of workers) worker.send(ask);
      if (gathering.waitingFor.size === 0) gathering.settle();
    });
  }

  private answered(worker: Worker, answer: MetricsAnswer): void {
    const gathering = this.gathering;
    // An answer to a scrape that already gave up is older than what the next scrape will ask for.
    if (!gathering || answer.id !== gathering.id || !gathering.waitingFor.delete(worker.id)) return;
    if ('error' in answer) {
      gathering.settle(new Error(`a worker could not list its metrics: ${answer.error}`));
      return;
    }
    this.lastGathered.set(worker.id, answer.metrics);
    if (gathering.waitingFor.size === 0) gathering.settle();
  }

  private exited(worker: Worker): void {
    const last = this.lastGathered.get(worker.id);
    this.lastGathered.delete(worker.id);
    if (last) this.retired.add(last);
    const gathering = this.gathering;
    if (gathering?.waitingFor.delete(worker.id) && gathering.waitingFor.size === 0) gathering.settle();
  }
}
