import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { SubmissionQueue } from '../domain/ports.ts';
import type { PublisherOutcome } from '../../indexer/publisher.ts';

/** Seconds buckets of request latency: from a cached answer (about a millisecond) to a slow export. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Seconds buckets of one search engine call. */
const SEARCH_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

const PUBLISHER_OUTCOMES: readonly PublisherOutcome[] = ['published', 'duplicate', 'needs_review', 'retried', 'lease_lost', 'failed'];

/** Statuses of submissions still waiting for the publisher or in its hands. */
const QUEUE_STATUSES = ['queued', 'processing'] as const;

/** A registry for one process, with the client library's process metrics (RSS, heap, CPU, event loop …) under a name prefix. */
export function processRegistry(prefix = ''): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix });
  return registry;
}

/**
 * What a process serving HTTP measures: requests by route and status, their latency, search
 * engine time and rate-limit refusals. Each HTTP worker keeps its own; the cluster primary
 * gathers them all (cluster-metrics.ts).
 */
export class HttpMetrics {
  readonly requests: Counter<'method' | 'route' | 'status'>;
  readonly requestSeconds: Histogram<'method' | 'route'>;
  readonly searchSeconds: Histogram;
  readonly rateLimitRefusals: Counter<'policy'>;

  constructor(readonly registry: Registry = new Registry()) {
    const registers = [registry];
    this.requests = new Counter({ name: 'archive_http_requests_total', help: 'HTTP requests answered, by method, route (the route pattern, or "unmatched") and status sent.', labelNames: ['method', 'route', 'status'], registers });
    this.requestSeconds = new Histogram({ name: 'archive_http_request_duration_seconds', help: 'Time from receiving a request to the end of its answer, by method and route.', labelNames: ['method', 'route'], buckets: REQUEST_BUCKETS, registers });
    this.searchSeconds = new Histogram({ name: 'archive_search_duration_seconds', help: 'Time the search engine took for one query (API, MCP, website lists and facet counts).', buckets: SEARCH_BUCKETS, registers });
    this.rateLimitRefusals = new Counter({ name: 'archive_rate_limit_refusals_total', help: 'Requests refused with 429, by policy: client (per address), ingest (per token), quota (daily submissions per token).', labelNames: ['policy'], registers });
    for (const policy of ['client', 'ingest', 'quota']) this.rateLimitRefusals.inc({ policy }, 0);
  }

  /** One answered request. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.inc({ method, route, status: String(status) });
    this.requestSeconds.observe({ method, route }, seconds);
  }
}

/** What a process running the publisher measures: how its attempts end, and the queue's depth in the store. */
export class PublisherMetrics {
  readonly outcomes: Counter<'outcome'>;

  constructor(readonly registry: Registry, queue: Pick<SubmissionQueue, 'countByStatus'>) {
    const registers = [registry];
    this.outcomes = new Counter({
      name: 'archive_publisher_submissions_total',
      help: 'Attempts of the publisher, by how they ended: a final status (published, duplicate, needs_review), back to the queue after a transient fault (retried), stopped because the lease was lost (lease_lost), or an unexpected error (failed).',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of PUBLISHER_OUTCOMES) this.outcomes.inc({ outcome }, 0);
    new Gauge({
      name: 'archive_publisher_queue_depth',
      help: 'Submissions waiting for the publisher (queued) and in its hands (processing), counted in the store at each scrape.',
      labelNames: ['status'],
      registers,
      async collect() {
        const counts = await queue.countByStatus();
        for (const status of QUEUE_STATUSES) this.set({ status }, counts[status] ?? 0);
      },
    });
  }

  /** Counts how one publisher attempt ended. */
  readonly observe = (outcome: PublisherOutcome): void => {
    this.outcomes.inc({ outcome });
  };
}
