/** What the benchmark runner hands the load process, and what it gets back. */

/** One load scenario: autocannon against url, cycling through paths in order across all connections. */
export interface LoadConfig {
  title: string;
  /** Origin, e.g. http://127.0.0.1:8080. */
  url: string;
  connections: number;
  seconds: number;
  /** Paths with query, requested in this order (shared by every connection). */
  paths: string[];
  /** A class name per path (same length as paths), for per-class latency; optional. */
  tags?: string[];
  /** Whether the paths must never repeat during the run; the result says if they ran out. */
  unique: boolean;
  headers?: Record<string, string>;
}

/** Latency of the requests of one class, measured by the load process itself. */
export interface TagStats {
  tag: string;
  count: number;
  p50: number;
  p99: number;
  max: number;
  bad: number;
}

/** A request that did not answer 2xx. */
export interface Failure {
  path: string;
  status: number;
  body: string;
}

export interface LoadResult {
  title: string;
  requestsPerSecond: number;
  total: number;
  seconds: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** How many paths were handed out; more than paths.length means a unique list wrapped around. */
  used: number;
  wrapped: boolean;
  byTag: TagStats[];
  failures: Failure[];
  /** CPU the load process itself used, in % of one core: on a small machine it competes with the server. */
  loadCpuPercent: number;
  /** The slowest requests, slowest first. */
  slowest: { path: string; ms: number }[];
}
