import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { LogLevel } from './logger.ts';

/** Every setting of the service. Read from the environment here and nowhere else. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseFile: string;
  mediaDir: string;
  /** Public base address without a trailing slash, used in url, markdown and media links. */
  baseUrl: string;
  /** HTTP worker processes; 0 serves from the main process alone. */
  workers: number;
  /** Load the demo catalog when the data folder holds no records. */
  loadDemo: boolean;
  logLevel: LogLevel;
  /** Size bound, in bytes of body text, of the responses each process keeps for repeated reads. */
  responseCacheBytes: number;
  /** Size bound, in bytes of JSON text, of the localized records each process keeps for result pages. */
  recordCacheBytes: number;
  /** Seconds clients and proxies may reuse a read response. */
  cacheMaxAgeSeconds: number;
  /** Browser origins allowed to call /mcp besides the service's own. */
  allowedOrigins: string[];
  /** host[:port] entries accepted as preview hosts for any source (the archive's own upload host). */
  uploadHosts: string[];
  /** Lets the media fetcher reach private and loopback addresses: for the archive's tests and trying ingest on one's own machine (docs/ingest.md), never a public deployment. */
  allowPrivateMedia: boolean;
  /** Run the publisher inside the server process (embedded deployment). */
  runPublisher: boolean;
  publisherConcurrency: number;
  /** Attempts before a submission whose checks keep failing transiently goes to needs_review. */
  publisherMaxAttempts: number;
  /** How long a publisher's claim holds without a heartbeat before another may take the submission. */
  publisherLeaseMs: number;
  /** Refuse requests whose User-Agent is missing or a library default. */
  rejectGenericUserAgents: boolean;
  /** Where canonical records, submissions and tokens live (ARCHIVE_STORE). */
  store: StoreSettings;
  /** Which full-text search engine answers queries (ARCHIVE_SEARCH). */
  search: SearchSettings;
  /** Requests per minute per client address (IPv6: per /64); 0 turns the limit off. */
  rateLimitReads: number;
  /** Ingest requests per minute per token; 0 turns the limit off. */
  rateLimitIngest: number;
  /** Submissions a token may make per UTC day; 0 means no quota. */
  ingestDailyQuota: number;
  /** Take the client address from the last X-Forwarded-For entry (set only behind a proxy that writes it). */
  trustProxy: boolean;
  /** Milliseconds a client has to send a whole request (headers within the same bound). */
  requestTimeoutMs: number;
  /** Milliseconds a process shutting down goes on accepting (answering Connection: close, /readyz 503) before it stops listening. */
  drainMs: number;
  /** Where GET /metrics (Prometheus text format) is served, off the public port; undefined: not served. */
  metrics?: { host: string; port: number };
  /** ARCHIVE_* variables set in the environment that no setting of this configuration read: misspelt, or of no effect here. */
  unreadVariables?: readonly string[];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n- ${problems.join('\n- ')}`);
    this.name = 'ConfigError';
  }
}

/** The canonical store: the SQLite file in the data folder, or a MongoDB replica set. */
export type StoreSettings = { kind: 'embedded' } | { kind: 'mongo'; uri: string; database: string };

/** The search engine: FTS5 in the embedded store's file, or Meilisearch. */
export type SearchSettings = { kind: 'embedded' } | { kind: 'meili'; url: string; apiKey?: string; indexPrefix?: string };

/** The adapters a process opens. */
export interface BackendSettings {
  store: StoreSettings;
  search: SearchSettings;
}

/**
 * Reads ARCHIVE_STORE / ARCHIVE_SEARCH and their connection settings, adding every problem to
 * `problems`. A MongoDB store needs Meilisearch: the FTS5 index lives in one machine's SQLite
 * file, which neither several app instances nor separate indexer processes can share.
 */
export function readBackendSettings(env: NodeJS.ProcessEnv, problems: string[]): BackendSettings {
  const choice = <T extends string>(name: string, options: readonly T[]): T => {
    const raw = env[name] || options[0];
    if ((options as readonly string[]).includes(raw as string)) return raw as T;
    problems.push(`${name} must be one of ${options.join(', ')}, got "${raw}"`);
    return options[0] as T;
  };
  const storeKind = choice('ARCHIVE_STORE', ['embedded', 'mongo'] as const);
  const searchKind = choice('ARCHIVE_SEARCH', ['embedded', 'meili'] as const);
  let store: StoreSettings = { kind: 'embedded' };
  if (storeKind === 'mongo') {
    const uri = env.MONGODB_URI ?? '';
    const database = env.MONGODB_DATABASE || 'archive';
    if (!uri) problems.push('MONGODB_URI is required when ARCHIVE_STORE=mongo (for example mongodb://mongo:27017/?replicaSet=rs0)');
    else if (!/^mongodb(\+srv)?:\/\//.test(uri)) problems.push('MONGODB_URI must start with mongodb:// or mongodb+srv://');
    if (!/^[A-Za-z0-9_-]{1,63}$/.test(database)) problems.push(`MONGODB_DATABASE must be 1–63 letters, digits, dashes or underscores, got "${database}"`);
    store = { kind: 'mongo', uri, database };
  }
  let search: SearchSettings = { kind: 'embedded' };
  if (searchKind === 'meili') {
    const url = (env.MEILI_URL ?? '').replace(/\/+$/, '');
    if (!url) problems.push('MEILI_URL is required when ARCHIVE_SEARCH=meili (for example http://meilisearch:7700)');
    else if (!/^https?:\/\/[^/]/.test(url)) problems.push(`MEILI_URL must be an http(s) URL, got "${url}"`);
    const indexPrefix = env.MEILI_INDEX_PREFIX ?? '';
    // Index names allow letters, digits, dashes and underscores; the prefix leaves room for "specimens_zh_new".
    if (!/^[A-Za-z0-9_-]{0,200}$/.test(indexPrefix)) problems.push(`MEILI_INDEX_PREFIX may hold only letters, digits, dashes and underscores (at most 200), got "${indexPrefix}"`);
    search = { kind: 'meili', url, ...(env.MEILI_API_KEY ? { apiKey: env.MEILI_API_KEY } : {}), ...(indexPrefix ? { indexPrefix } : {}) };
  }
  if (store.kind === 'mongo' && search.kind === 'embedded') {
    problems.push('ARCHIVE_STORE=mongo needs ARCHIVE_SEARCH=meili: the embedded search index lives in the SQLite file of one machine, which app and indexer processes on other machines cannot share');
  }
  return { store, search };
}

/** The backend settings alone, for tools and tests that need no other setting; throws ConfigError. */
export function loadBackendSettings(env: NodeJS.ProcessEnv = process.env): BackendSettings {
  const problems: string[] = [];
  const settings = readBackendSettings(env, problems);
  if (problems.length) throw new ConfigError(problems);
  return settings;
}

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

/** The environment, noting the name of every variable read from it in `read`. */
function noteReads(env: NodeJS.ProcessEnv, read: Set<string>): NodeJS.ProcessEnv {
  return new Proxy(env, {
    get(target, name, receiver) {
      if (typeof name === 'string') read.add(name);
      return Reflect.get(target, name, receiver) as unknown;
    },
  });
}

/** Reads and validates the configuration; every problem is reported at once. */
export function loadConfig(given: NodeJS.ProcessEnv = process.env): Config {
  const read = new Set<string>();
  const env = noteReads(given, read);
  const problems: string[] = [];
  const integer = (name: string, fallback: number, minimum: number, maximum: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < minimum || Number(raw) > maximum) {
      problems.push(`${name} must be an integer from ${minimum} to ${maximum}, got "${raw}"`);
      return fallback;
    }
    return Number(raw);
  };
  const flag = (name: string, fallback: boolean): boolean => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (raw === '1' || raw === 'true') return true;
    if (raw === '0' || raw === 'false') return false;
    problems.push(`${name} must be 1 or 0, got "${raw}"`);
    return fallback;
  };

  const port = integer('PORT', 8080, 0, 65535);
  const dataDir = resolve(env.ARCHIVE_DATA_DIR || './data');
  let baseUrl = (env.ARCHIVE_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    const parsed = new URL(baseUrl);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') problems.push(`ARCHIVE_BASE_URL must be an http(s) URL, got "${baseUrl}"`);
    if (parsed.search || parsed.hash) problems.push('ARCHIVE_BASE_URL must not have a query or fragment');
    // The pages link and redirect to root addresses (/en/, /assets/…): under a path they would leave the archive.
    if (parsed.pathname !== '/') problems.push(`ARCHIVE_BASE_URL must be an origin without a path (e.g. https://archive.example.org), got "${baseUrl}": the archive is served at the root of its host`);
  } catch {
    problems.push(`ARCHIVE_BASE_URL must be an absolute URL, got "${baseUrl}"`);
    baseUrl = `http://localhost:${port}`;
  }
  const logLevel = (env.ARCHIVE_LOG_LEVEL || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`ARCHIVE_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.ARCHIVE_LOG_LEVEL}"`);

  const allowedOrigins = (env.ARCHIVE_ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  for (const origin of allowedOrigins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin !== origin) problems.push(`ARCHIVE_ALLOWED_ORIGINS entries must be origins like https://app.example, got "${origin}"`);
  }

  const uploadHosts = (env.ARCHIVE_UPLOAD_HOSTS ?? '')
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean);
  for (const host of uploadHosts) {
    if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/.test(host)) problems.push(`ARCHIVE_UPLOAD_HOSTS entries must be host or host:port, got "${host}"`);
  }

  const backendSettings = readBackendSettings(env, problems);
  const metricsPort = env.ARCHIVE_METRICS_PORT ? integer('ARCHIVE_METRICS_PORT', 0, 1, 65535) : undefined;
  if (metricsPort !== undefined && metricsPort === port && port !== 0) problems.push('ARCHIVE_METRICS_PORT must differ from PORT: the metrics are kept off the public port');

  const config: Config = {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseFile: resolve(dataDir, 'archive.sqlite'),
    mediaDir: resolve(dataDir, 'media'),
    baseUrl,
    workers: integer('ARCHIVE_WORKERS', Math.min(availableParallelism(), 8), 0, 64),
    loadDemo: flag('ARCHIVE_DEMO', true),
    logLevel,
    responseCacheBytes: integer('ARCHIVE_RESPONSE_CACHE_MB', 32, 0, 4096) * 1024 * 1024,
    recordCacheBytes: integer('ARCHIVE_RECORD_CACHE_MB', 80, 0, 4096) * 1024 * 1024,
    cacheMaxAgeSeconds: integer('ARCHIVE_CACHE_MAX_AGE', 60, 0, 86400),
    allowedOrigins,
    uploadHosts,
    allowPrivateMedia: flag('ARCHIVE_ALLOW_PRIVATE_MEDIA', false),
    runPublisher: flag('ARCHIVE_PUBLISHER', true),
    publisherConcurrency: integer('ARCHIVE_PUBLISHER_CONCURRENCY', 4, 1, 64),
    publisherMaxAttempts: integer('ARCHIVE_PUBLISHER_MAX_ATTEMPTS', 5, 1, 100),
    publisherLeaseMs: integer('ARCHIVE_PUBLISHER_LEASE_MS', 60_000, 1000, 3_600_000),
    rejectGenericUserAgents: flag('ARCHIVE_REJECT_GENERIC_UA', false),
    ...backendSettings,
    rateLimitReads: integer('ARCHIVE_RATE_LIMIT_READS', 600, 0, 1_000_000),
    rateLimitIngest: integer('ARCHIVE_RATE_LIMIT_INGEST', 60, 0, 1_000_000),
    ingestDailyQuota: integer('ARCHIVE_INGEST_DAILY_QUOTA', 5000, 0, 10_000_000),
    trustProxy: flag('ARCHIVE_TRUST_PROXY', false),
    requestTimeoutMs: integer('ARCHIVE_REQUEST_TIMEOUT_MS', 30_000, 1000, 600_000),
    drainMs: integer('ARCHIVE_DRAIN_MS', 3000, 0, 60_000),
    ...(metricsPort ? { metrics: { host: env.ARCHIVE_METRICS_HOST || '127.0.0.1', port: metricsPort } } : {}),
  };
  if (problems.length) throw new ConfigError(problems);
  const unreadVariables = Object.keys(given).filter((name) => name.startsWith('ARCHIVE_') && !read.has(name));
  return unreadVariables.length ? { ...config, unreadVariables } : config;
}
