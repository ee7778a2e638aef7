/** What the benchmark runner hands the load process, and what it gets back. */

/** How the load process judges a 2xx answer's body: not at all, or as a JSON-RPC answer that must hold a result. */
export type BodyCheck = 'none' | 'json-rpc';

/**
 * One load scenario: autocannon against url, cycling through the requests in order across all
 * connections. A request is paths[i] (GET), or with bodies, paths[i] (or the single path) POSTed with bodies[i].
 */
export interface LoadConfig {
  title: string;
  /** Origin, e.g. http://127.0.0.1:8080. */
  url: string;
  connections: number;
  seconds: number;
  /** Paths with query, requested in this order (shared by every connection); one path serves every body. */
  paths: string[];
  /** GET unless given; POST needs bodies. */
  method?: 'GET' | 'POST';
  /** Request bodies, in order; when given, they set the number of requests in the list. A null body makes that request a GET (a mixed list). */
  bodies?: (string | null)[];
  /** Headers added to the requests that carry a body (e.g. MCP's), on top of headers. */
  bodyHeaders?: Record<string, string>;
  /** How to judge the answer's body of a request that carried one; none by default (only the status counts). */
  bodyCheck?: BodyCheck;
  /** A class name per request (same length as the list), for per-class latency; optional. */
  tags?: string[];
  /**
   * Whether the requests must never repeat during the run: the load process then counts the
   * distinct requests it sent against all it sent, and any repeat fails the scenario.
   */
  unique: boolean;
  /** What must not repeat, one per request (e.g. the search an MCP body stands for); the path and body by default. */
  keys?: string[];
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

/** A request that did not answer 2xx, or whose 2xx body failed the body check. */
export interface Failure {
  path: string;
  /** The request body, for POST (cut short). */
  request?: string;
  status: number;
  body: string;
}

export interface LoadResult {
  title: string;
  /** When autocannon started, in ms since the epoch (to line up samples taken by the runner). */
  startedAtMs: number;
  requestsPerSecond: number;
  total: number;
  seconds: number;
  /** Latency quantiles of every answer, in ms to 0.01 (timed by the load process from sending to the whole answer). */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** 2xx answers whose body failed the body check (a JSON-RPC error or a tool result with isError). */
  badBodies: number;
  statusCodes: Record<string, number>;
  /** How many paths were handed out; more than paths.length means a unique list wrapped around. */
  used: number;
  wrapped: boolean;
  /** For a unique scenario: requests sent and how many of them were distinct (counted by the load process as it sent them). */
  distinct?: { sent: number; unique: number };
  byTag: TagStats[];
  failures: Failure[];
  /** CPU the load process itself used, in % of one core: on a small machine it competes with the server. */
  loadCpuPercent: number;
  /** CPU the server's processes used per request, in µs, read from /proc (set by the runner for the scenarios it measures). */
  serverCpuMicros?: number;
  /**
   * The cores each process of the server used over the scenario (CPU seconds over wall seconds),
   * busiest first: with two workers, one near 1 and the other far below means one core served
   * most of the connections.
   */
  serverCores?: { pid: number; cores: number }[];
  /** The slowest requests, slowest first. */
  slowest: { path: string; ms: number }[];
}

/** Latency of a set of duplicate lookups, in ms: wall time, and CPU time (which a busy machine's scheduling does not inflate). */
export interface LookupStats {
  count: number;
  p50: number;
  p99: number;
  max: number;
  cpuP99: number;
  cpuMax: number;
  /** Records found within the distance, summed over the lookups. */
  matches: number;
}

/** What scripts/bench/hashes.ts measures: the HashIndex at a million hashes. */
export interface HashesResult {
  hashes: number;
  maxDistance: number;
  buildSeconds: number;
  /** Growth of the JS heap (the id maps) and of array buffers (the packed hashes) while building. */
  heapMegabytes: number;
  arrayBufferMegabytes: number;
  rssMegabytes: number;
  /** Whether the figures were taken after a forced garbage collection. */
  exactHeap: boolean;
  warmupLookups: number;
  firstLookupMs: number;
  all: LookupStats;
  /** Near copies of stored hashes (each finds at least its original) and new hashes (find nothing). */
  near: LookupStats;
  fresh: LookupStats;
}

/** Time spent in one stage, or in one store method during the run. */
export interface StageTime {
  name: string;
  calls: number;
  /** Total and per-call wall time, ms. */
  totalMs: number;
  meanMs: number;
}

/** One run of the real publisher over a fresh data folder. */
export interface PublisherRun {
  concurrency: number;
  /** Distinct model labels among the submissions: publishing is serialized per model. */
  models: number;
  submissions: number;
  previews: number;
  /** From publisher.start() until every submission was final. */
  seconds: number;
  submissionsPerSecond: number;
  previewsPerSecond: number;
  /** Whether every submission was final before the time limit. */
  finished: boolean;
  statuses: Record<string, number>;
  /** Records written (a gallery record each, a timeline record for each model's first work). */
  records: number;
  /** A submission that did not publish, with its checks, when there is one. */
  sample?: { submissionId: string; status: string; reason: string | null; checks: { name: string; outcome: string; detail: string }[] };
  /** Main-thread event loop utilization during the run (1 = the JS thread never idle) and process CPU in % of one core. */
  eventLoopUtilization: number;
  cpuPercent: number;
  /** Wall time of each store and queue method during the run (SQLite, synchronous on the main thread). */
  storeCalls: StageTime[];
  /** Lines the publisher logged at warn or above, apart from the expected private-media warning. */
  logLines: string[];
}

/** What scripts/bench/publisher.ts measures: runs of the real publisher over a loopback image server, and its stages. */
export interface PublisherResult {
  runs: PublisherRun[];
  /** One preview at a time, after the runs: fetch, decode, pixel analysis and hash, SHA-256, store. */
  stages: StageTime[];
  /** Closest perceptual distance between two of the generated previews (must exceed the ambiguity limit for all to publish). */
  closestPreviews: number;
  renderSeconds: number;
  /** libvips threads per image operation (sharp.concurrency()) and the libuv thread pool size. */
  sharpConcurrency: number;
  threadPool: number;
}

/** Resident memory (MB, 2^20 bytes) and CPU of one server process around a download. */
export interface ProcessMemory {
  pid: number;
  role: 'primary' | 'worker';
  beforeMegabytes: number;
  peakMegabytes: number;
  /** CPU the process used during the download, in seconds. */
  cpuSeconds: number;
}

/** One download of a public bulk export, streamed and counted without holding the body. */
export interface ExportDownload {
  path: string;
  /** The Accept-Encoding sent: identity (uncompressed) or gzip. */
  encoding: 'identity' | 'gzip';
  status: number;
  contentEncoding: string;
  /** Bytes on the wire (compressed for gzip), and after decompression. */
  bytes: number;
  decodedBytes: number;
  firstByteSeconds: number;
  seconds: number;
  recordsPerSecond: number;
  /** Wire MB (2^20 bytes) per second. */
  megabytesPerSecond: number;
  /** Records counted in the body, the total a JSON export states at its end, and the catalog's total. */
  records: number;
  statedTotal: number | null;
  expected: number;
  /** What is wrong with the download; empty when it is right. */
  problems: string[];
  /** RSS samples taken (every 50 ms) and each server process's memory around the download. */
  samples: number;
  processes: ProcessMemory[];
  /** The process that served it (the one that used the most CPU), and its peak RSS increase. */
  servedBy: number;
  servedIncreaseMegabytes: number;
  /** The largest peak RSS increase of any serving process (the workers, or the primary without workers). */
  maxIncreaseMegabytes: number;
}

/** What the exports scenario measures: each public bulk export downloaded once, one after the other. */
export interface ExportsResult {
  /** The catalog's total, which every export must hold. */
  total: number;
  downloads: ExportDownload[];
  /** Each server process over the whole scenario: RSS before the first download, peak over all, CPU summed. */
  processes: ProcessMemory[];
}

/** One server process's RSS (MB) in the first and the last window of the soak, or all of them summed. */
export interface MemoryWindow {
  /** The process id, or 0 for the sum over all processes. */
  pid: number;
  /** The primary, an HTTP worker, a helper of another program (tsx's esbuild service), or the sum. */
  role: 'primary' | 'worker' | 'helper' | 'total';
  firstMegabytes: number;
  lastMegabytes: number;
  peakMegabytes: number;
  /** How far the last window's mean may lie above the first's: max(10 %, 30 MB per process). */
  allowedMegabytes: number;
  grew: boolean;
  /** Mean RSS of each 5 s of the run, to see whether growth levels off. */
  everyFiveSeconds: number[];
  /** CPU the process used during the run, in % of one core (who takes the cores while the publisher works). */
  cpuPercent: number;
}

/** What happened to the soak's submissions: sent over HTTP during the run, then followed to a final status. */
export interface SoakSubmissions {
  /** Submitted during the measured run (besides the few of the warm-up). */
  planned: number;
  accepted: number;
  warmupAccepted: number;
  /** Ingest requests that did not answer 202 with every item accepted, with the first answers. */
  failedRequests: number;
  failures: string[];
  /** Of the run's submissions: published, and final (published, duplicate or needs_review) when the load stopped. */
  publishedDuringRun: number;
  finalDuringRun: number;
  /** Statuses of all of them (warm-up included) at the end, and whether every one was final. */
  statuses: Record<string, number>;
  allFinal: boolean;
  /** Seconds after the load stopped until every submission was final (or the wait ran out). */
  drainSeconds: number;
  /** Records the catalog gained from before the warm-up to the end. */
  recordsAdded: number;
}

/** What the soak scenario measures: a mixed read load while submissions are published, and the servers' memory over it. */
export interface SoakResult {
  seconds: number;
  warmupSeconds: number;
  connections: number;
  warmup: LoadResult;
  load: LoadResult;
  submissions: SoakSubmissions;
  /** Length of the first and the last window compared, and the samples taken (one a second). */
  windowSeconds: number;
  samples: number;
  /** Per process, then the total. */
  memory: MemoryWindow[];
  /** Server processes that appeared or vanished during the run (a worker restarted). */
  processChanges: number;
  renderSeconds: number;
}

/** One catalog size as written before the server starts: the file, the bare reference insert, the import and the sizes. */
export interface CatalogFacts {
  records: number;
  catalogMegabytes: number;
  generateSeconds: number;
  /** The same file into one FTS5 table and nothing else (scripts/bench/bare-insert.ts); its database's size. */
  bare: { records: number; seconds: number; recordsPerSecond: number; peakRssMegabytes: number; megabytes: number };
  /** `npm run catalog -- import` as it timed itself (both passes), and the import process's peak RSS. */
  import: { seconds: number; recordsPerSecond: number; peakRssMegabytes: number };
  /** The database file with its WAL; of it, the search index (every search table and index) and the records. */
  databaseMegabytes: number;
  indexMegabytes: number;
  recordsMegabytes: number;
}
