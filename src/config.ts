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
  /** Seconds clients and proxies may reuse a read response. */
  cacheMaxAgeSeconds: number;
  /** Browser origins allowed to call /mcp besides the service's own. */
  allowedOrigins: string[];
  /** host[:port] entries accepted as preview hosts for any source (the archive's own upload host). */
  uploadHosts: string[];
  /** Lets the media fetcher reach private and loopback addresses. For the archive's own tests only. */
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
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n- ${problems.join('\n- ')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

/** Reads and validates the configuration; every problem is reported at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
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
    cacheMaxAgeSeconds: integer('ARCHIVE_CACHE_MAX_AGE', 60, 0, 86400),
    allowedOrigins,
    uploadHosts,
    allowPrivateMedia: flag('ARCHIVE_ALLOW_PRIVATE_MEDIA', false),
    runPublisher: flag('ARCHIVE_PUBLISHER', true),
    publisherConcurrency: integer('ARCHIVE_PUBLISHER_CONCURRENCY', 4, 1, 64),
    publisherMaxAttempts: integer('ARCHIVE_PUBLISHER_MAX_ATTEMPTS', 5, 1, 100),
    publisherLeaseMs: integer('ARCHIVE_PUBLISHER_LEASE_MS', 60_000, 1000, 3_600_000),
    rejectGenericUserAgents: flag('ARCHIVE_REJECT_GENERIC_UA', false),
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}
