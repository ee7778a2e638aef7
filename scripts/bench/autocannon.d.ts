/** The part of autocannon's programmatic API the benchmark uses (the package ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  /** A histogram summary (hdr-histogram-percentiles-obj). */
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p2_5: number;
    p50: number;
    p75: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
    p99_99: number;
    p99_999: number;
  }

  /** One request as autocannon builds it. */
  export interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }

  /** Per-connection scratch object handed to setupRequest and onResponse. */
  export type RequestContext = Record<string, unknown>;

  export interface Request extends RequestParams {
    /** Returns the request to send; a falsy value restarts the sequence. */
    setupRequest?: (request: RequestParams, context: RequestContext) => RequestParams | null | undefined;
    onResponse?: (status: number, body: string, context: RequestContext, headers: Record<string, string | string[]>) => void;
  }

  export interface Options {
    url: string;
    title?: string;
    connections?: number;
    duration?: number;
    amount?: number;
    pipelining?: number;
    timeout?: number;
    headers?: Record<string, string>;
    requests?: Request[];
    excludeErrorStats?: boolean;
  }

  export interface Result {
    title?: string;
    url: string;
    requests: Histogram & { sent: number };
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    resets: number;
    connections: number;
    pipelining: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  /** A running benchmark: an event emitter that is also awaitable for its result. */
  export type Instance = EventEmitter & PromiseLike<Result>;

  export default function autocannon(options: Options): Instance;
}
