/**
 * What to tell an operator when the search index cannot be opened: the failure of a request to
 * Meilisearch as a sentence naming the variable to look at (MEILI_URL with its value, or
 * MEILI_API_KEY, whose value is a secret and is never written), the cause (nothing listens, the
 * host does not resolve, TLS, a key refused or too narrow, a server that is not Meilisearch) and
 * what to do. The official client says only `Request to …/settings has failed` or Meilisearch's
 * own `The provided API key is invalid.`
 */
import { MeilisearchApiError, MeilisearchRequestError, MeilisearchRequestTimeOutError } from 'meilisearch';
import type { MeiliSearchOptions } from './meili-search.ts';
import { READY_TIMEOUT_MS, REQUEST_TIMEOUT_MS, indexName } from './settings.ts';
import { MeiliTaskError } from './tasks.ts';
import { MeiliForeignAnswerError } from './unavailable.ts';

/** A failure to open the search index, told for the operator. */
export interface MeiliProblem {
  /**
   * True when Meilisearch is down or cannot be reached now and may answer later (nothing listens,
   * no answer in time, its host does not resolve, a proxy in front of it says its upstream is
   * down); false when the configuration is wrong (a key refused, TLS, a server that is not
   * Meilisearch), which waiting does not mend.
   */
  outage: boolean;
  message: string;
}

/** How long each question asked to tell a problem apart (is this Meilisearch, is the key one of its keys) may take. */
const PROBE_TIMEOUT_MS = 5000;

const KEYS_ADVICE = 'Set MEILI_API_KEY to its master key (MEILI_MASTER_KEY where Meilisearch runs) or to its Default Admin API Key (GET /keys with the master key lists the keys).';

/** Errno-like codes of a TLS connection that failed (Node's and OpenSSL's). */
const TLS_CODE = /^(ERR_SSL_|ERR_TLS_|EPROTO$|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|HOSTNAME_MISMATCH$)/;

/** Statuses with which a proxy in front of Meilisearch (or Meilisearch itself, 503) says it cannot answer now. */
const OUTAGE_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/**
 * The problem an error met while opening the index stands for. May ask the server a question or
 * two to tell causes apart that answer alike: a key that is no key of the server and a valid key
 * without the rights the archive needs (both 403 invalid_api_key), and a proxy's error page and a
 * server that is not Meilisearch (both a body that is not JSON).
 */
export async function describeMeiliProblem(error: unknown, options: MeiliSearchOptions): Promise<MeiliProblem> {
  const url = options.url;
  if (error instanceof MeilisearchApiError) return describeAnswer(error, options);
  // The client parses every body as JSON; a request not wrapped in fromMeili lets the SyntaxError through.
  if (error instanceof MeiliForeignAnswerError || error instanceof SyntaxError) {
    const health = await probeHealth(url);
    if (health.status !== undefined && OUTAGE_STATUSES.has(health.status)) return proxyOutage(url, health.status, health.statusText);
    if (health.status === undefined) return { outage: true, message: `Meilisearch at MEILI_URL=${url} answered with a body that is not JSON, then could not be reached (${health.reason}): it, or a proxy in front of it, is failing. Start Meilisearch, or set MEILI_URL to its address.` };
    return notMeilisearch(url, `its answer to ${settingsRoute(options)} is not JSON (GET /health: ${health.status} ${health.statusText})`);
  }
  if (error instanceof MeilisearchRequestError) {
    if (error.cause instanceof MeilisearchRequestTimeOutError) {
      return { outage: true, message: `Meilisearch at MEILI_URL=${url} did not answer in time (its health within ${READY_TIMEOUT_MS / 1000} s, a request within ${REQUEST_TIMEOUT_MS / 1000} s): it is hung or overloaded, or the network drops the connection. Make it answer (its log; a process stopped with SIGSTOP), or set MEILI_URL to its address.` };
    }
    const { code, message } = causeOf(error);
    if (code === 'ECONNREFUSED') return { outage: true, message: `Nothing listens at MEILI_URL=${url} (ECONNREFUSED): start Meilisearch there, or set MEILI_URL to its address (for example http://meilisearch:7700).` };
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      return { outage: true, message: `The host of MEILI_URL=${url} does not resolve (${code}): correct the host name in MEILI_URL, or start the service it names (the name of a stopped container does not resolve).` };
    }
    if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG') {
      return { outage: false, message: `MEILI_URL=${url} asks for TLS (https), but the server there does not speak it (${code}: it answers plain HTTP): write MEILI_URL with http://, or put TLS in front of Meilisearch.` };
    }
    if (code !== undefined && TLS_CODE.test(code)) {
      return { outage: false, message: `The TLS connection to MEILI_URL=${url} failed (${code}: ${message}): if its certificate is signed by an authority of your own, give it to Node (NODE_EXTRA_CA_CERTS=FILE); if it names another host, write that host in MEILI_URL.` };
    }
    return { outage: true, message: `The connection to Meilisearch at MEILI_URL=${url} failed (${code ?? 'no code'}: ${message}): it may be restarting, or the network to it is down. Start Meilisearch, or set MEILI_URL to its address.` };
  }
  if (error instanceof MeiliTaskError) return { outage: false, message: `Meilisearch at MEILI_URL=${url} could not apply the archive's index settings: ${error.message}. See its log.` };
  return { outage: false, message: error instanceof Error ? error.message : String(error) };
}

/** An answer with a status that is not a success. */
async function describeAnswer(error: MeilisearchApiError, options: MeiliSearchOptions): Promise<MeiliProblem> {
  const url = options.url;
  const { status, statusText } = error.response;
  const code = error.cause?.code;
  if (OUTAGE_STATUSES.has(status)) return proxyOutage(url, status, statusText);
  if (status === 401 || code === 'missing_authorization_header') {
    return options.apiKey
      ? { outage: false, message: `Meilisearch at MEILI_URL=${url} did not see the key MEILI_API_KEY gives (401 ${code ?? statusText}): a proxy in front of it may drop the Authorization header. ${KEYS_ADVICE}` }
      : { outage: false, message: `Meilisearch at MEILI_URL=${url} asks for an API key, and MEILI_API_KEY is not set (401 ${code ?? statusText}). ${KEYS_ADVICE}` };
  }
  if (status === 403 || code === 'invalid_api_key') {
    if (options.apiKey && (await isKeyOfServer(url, options))) {
      return {
        outage: false,
        message: `MEILI_API_KEY is a key of Meilisearch at MEILI_URL=${url}, but not one that may do what the archive does (403 ${code ?? statusText}): it reads and changes its indexes' settings and documents and waits for their tasks, which a search key (the Default Search API Key) or a read-only key may not. ${KEYS_ADVICE}`,
      };
    }
    return { outage: false, message: `MEILI_API_KEY is not a key of Meilisearch at MEILI_URL=${url} (403 ${code ?? statusText}): a key of another server, a key deleted since, or a master key changed since. ${KEYS_ADVICE}` };
  }
  if (code === undefined) {
    const health = await probeHealth(url);
    if (!health.meilisearch) return notMeilisearch(url, `it answered ${status} ${statusText} to ${settingsRoute(options)}, which Meilisearch answers with JSON`);
  }
  return { outage: false, message: `Meilisearch at MEILI_URL=${url} refused to open the archive's indexes (${status} ${code ?? statusText}: ${error.message}). See its log.` };
}

function proxyOutage(url: string, status: number, statusText: string): MeiliProblem {
  return { outage: true, message: `MEILI_URL=${url} answered ${status} ${statusText}: Meilisearch, or a proxy in front of it whose upstream is down, cannot answer now. Start Meilisearch, or set MEILI_URL to its address.` };
}

function notMeilisearch(url: string, what: string): MeiliProblem {
  return { outage: false, message: `MEILI_URL=${url} is not the address of a Meilisearch server: ${what}. Set MEILI_URL to Meilisearch's address (for example http://meilisearch:7700), without a path.` };
}

function settingsRoute(options: MeiliSearchOptions): string {
  return `GET /indexes/${indexName('zh', options.indexPrefix)}/settings`;
}

/** The innermost errno-like code and message of a failed request (undici wraps the socket's error in TypeError('fetch failed')). */
function causeOf(error: Error): { code: string | undefined; message: string } {
  let found: { code: string | undefined; message: string } = { code: undefined, message: error.message };
  for (let cause: unknown = error.cause, depth = 0; cause instanceof Error && depth < 8; cause = cause.cause, depth += 1) {
    const code = (cause as NodeJS.ErrnoException).code;
    found = { code: typeof code === 'string' ? code : found.code, message: cause.message.trim() };
  }
  return found;
}

/** What GET /health at the address answers: Meilisearch answers 200 {"status":"available"}. */
async function probeHealth(url: string): Promise<{ status?: number; statusText: string; meilisearch: boolean; reason?: string }> {
  try {
    const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    const body = await response.text();
    let meilisearch = false;
    try {
      meilisearch = response.ok && (JSON.parse(body) as { status?: unknown }).status === 'available';
    } catch {
      meilisearch = false;
    }
    return { status: response.status, statusText: response.statusText, meilisearch };
  } catch (error) {
    const { code, message } = causeOf(error instanceof Error ? error : new Error(String(error)));
    return { statusText: '', meilisearch: false, reason: code ?? message };
  }
}

/**
 * Whether Meilisearch accepts the key for anything: each route below needs one action (version,
 * search, documents.get, indexes.get, tasks.get, stats.get, keys.get), and a key that is one of the
 * server's has at least one; a key the server does not know is refused on all of them (403).
 */
async function isKeyOfServer(url: string, options: MeiliSearchOptions): Promise<boolean> {
  const uid = indexName('zh', options.indexPrefix);
  const headers = { Authorization: `Bearer ${options.apiKey ?? ''}`, 'Content-Type': 'application/json' };
  const probes: [string, RequestInit][] = [
    ['/version', {}],
    [`/indexes/${uid}/search`, { method: 'POST', body: JSON.stringify({ q: '', limit: 0 }) }],
    [`/indexes/${uid}/documents?limit=0`, {}],
    ['/indexes?limit=1', {}],
    ['/tasks?limit=1', {}],
    ['/stats', {}],
    ['/keys?limit=1', {}],
  ];
  const accepted = await Promise.all(
    probes.map(([path, init]) =>
      fetch(`${url}${path}`, { ...init, headers, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) }).then(
        async (response) => {
          await response.arrayBuffer();
          return response.status !== 401 && response.status !== 403;
        },
        () => false,
      ),
    ),
  );
  return accepted.some(Boolean);
}
