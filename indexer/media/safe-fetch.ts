/**
 * An SSRF-safe image fetcher: http(s) only, every hop's host resolved and vetted (all addresses, no
 * private ones unless allowed), the connection pinned to the vetted addresses, redirects followed by
 * hand and re-vetted, size and total time bounded, no cookies or credentials sent.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import http from 'node:http';
import type { IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { anyAddress, classifyAddress, literalAddress, publicOnly } from './address-policy.ts';
import type { AddressCategory, AddressPolicy } from './address-policy.ts';

/** Largest body accepted by default: 10 MB. */
export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
/** Default total time for a fetch, redirects included. */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** Default number of redirects followed. */
export const DEFAULT_MAX_REDIRECTS = 3;
/** Default User-Agent header. */
export const DEFAULT_USER_AGENT = 'model-works-archive-publisher/1.0 (+preview check)';

/** A resolved address of a host name. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** Options of fetchImage. */
export interface FetchImageOptions {
  /** Lets the fetcher reach private, loopback and other non-public addresses (the archive's own tests). */
  allowPrivate: boolean;
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  userAgent?: string;
  /** Cancels the fetch (shutdown); reported as a transient failure. */
  signal?: AbortSignal;
  /** Host name resolution; dns.lookup with all addresses by default. For tests. */
  resolve?: Resolver;
  /** Which addresses may be connected to; overrides allowPrivate. For tests and special deployments. */
  addressPolicy?: AddressPolicy;
}

/** Bytes of a fetched image with where they finally came from. */
export interface FetchedImage {
  bytes: Buffer;
  /** URL of the last hop, after redirects. */
  finalUrl: string;
  /** The server's Content-Type, for information only: never trusted for the format. */
  contentType?: string;
  /** Redirects followed. */
  redirects: number;
}

/** Machine-readable cause of a fetch failure. */
export type FetchFailureCode =
  | 'invalid-url'
  | 'bad-scheme'
  | 'credentials'
  | 'blocked-address'
  | 'dns'
  | 'timeout'
  | 'aborted'
  | 'connection'
  | 'tls'
  | 'http-status'
  | 'too-large'
  | 'too-many-redirects'
  | 'bad-redirect';

/** A fetch that failed: a reason for people, and whether trying again later may help. */
export class ImageFetchError extends Error {
  override readonly name = 'ImageFetchError';
  constructor(
    readonly code: FetchFailureCode,
    readonly reason: string,
    /** Worth retrying later: timeouts, refused or reset connections, 5xx, 429, 408. */
    readonly transient: boolean,
    /** URL of the hop that failed. */
    readonly url: string,
    /** HTTP status, for 'http-status'. */
    readonly status?: number,
  ) {
    super(reason);
  }
}

const defaultResolver: Resolver = async (hostname) => {
  const addresses = await dnsLookup(hostname, { all: true, verbatim: true });
  return addresses.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const TRANSIENT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'EAI_AGAIN', 'EADDRNOTAVAIL', 'UND_ERR_SOCKET']);

function isTransientStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500;
}

/** The addresses a URL's host stands for: the literal itself, or every address it resolves to. */
async function addressesOf(url: URL, resolve: Resolver): Promise<ResolvedAddress[]> {
  const literal = literalAddress(url.hostname);
  if (literal) return [{ address: literal, family: isIP(literal) === 6 ? 6 : 4 }];
  try {
    const addresses = await resolve(url.hostname);
    if (addresses.length === 0) throw new ImageFetchError('dns', `${url.hostname} has no address`, false, url.href);
    return addresses;
  } catch (error) {
    if (error instanceof ImageFetchError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const transient = code === 'EAI_AGAIN' || code === 'ESERVFAIL' || code === 'ETIMEOUT' || code === 'ECONNREFUSED';
    throw new ImageFetchError('dns', `${url.hostname} does not resolve (${code || (error as Error).message})`, transient, url.href);
  }
}

/** Refuses the hop unless every address passes the policy. */
function vet(url: URL, addresses: readonly ResolvedAddress[], policy: AddressPolicy): void {
  for (const { address } of addresses) {
    const category: AddressCategory = classifyAddress(address);
    if (!policy(address, category)) {
      const named = literalAddress(url.hostname) ? '' : ` (${url.hostname} resolves to it)`;
      throw new ImageFetchError('blocked-address', `refused to connect to ${address}, a ${category} address${named}`, false, url.href);
    }
  }
}

/** A net lookup function that answers only with the vetted addresses, whatever DNS says now. */
function pinnedLookup(addresses: readonly ResolvedAddress[]) {
  return (_hostname: string, options: LookupOptions, callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void): void => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((entry) => entry.family === options.family) : addresses;
    const list = wanted.length ? wanted : addresses;
    if (options.all) callback(null, list.map((entry) => ({ address: entry.address, family: entry.family })));
    else callback(null, list[0]?.address ?? '', list[0]?.family ?? 4);
  };
}

interface Limits {
  maxBytes: number;
  userAgent: string;
  signal: AbortSignal;
}

/** Sends one GET to the pinned addresses; resolves with the response head (body not yet read). */
function requestHop(url: URL, addresses: readonly ResolvedAddress[], limits: Limits): Promise<IncomingMessage> {
  const literal = literalAddress(url.hostname);
  const options: https.RequestOptions = {
    method: 'GET',
    protocol: url.protocol,
    hostname: literal ?? url.hostname,
    port: url.port || (url.protocol === 'https:' ? 443 : 80),
    path: `${url.pathname}${url.search}`,
    headers: {
      'user-agent': limits.userAgent,
      accept: 'image/png,image/jpeg,image/webp,image/gif,image/*;q=0.8,*/*;q=0.1',
      'accept-encoding': 'identity',
      host: url.host,
    },
    // A fresh connection for every hop: no pooled socket to an address vetted for another request.
    agent: false,
    lookup: pinnedLookup(addresses),
    signal: limits.signal,
    ...(url.protocol === 'https:' && !literal ? { servername: url.hostname } : {}),
  };
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise<IncomingMessage>((resolve, reject) => {
    const request = send(options, resolve);
    request.on('error', reject);
    request.end();
  });
}

/** Reads a response body, refusing it as soon as it is larger than allowed. */
function readBody(response: IncomingMessage, url: URL, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    return Promise.reject(new ImageFetchError('too-large', `the server announces ${declared} bytes, more than the ${maxBytes} allowed`, false, url.href));
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        response.destroy();
        reject(new ImageFetchError('too-large', `the body is larger than the ${maxBytes} bytes allowed`, false, url.href));
        return;
      }
      chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks, size)));
    response.on('error', reject);
    response.on('close', () => {
      if (!response.complete) reject(Object.assign(new Error('the connection closed before the body ended'), { code: 'ECONNRESET' }));
    });
  });
}

function translate(error: unknown, url: URL, timedOut: boolean, timeoutMs: number): ImageFetchError {
  if (error instanceof ImageFetchError) return error;
  if (timedOut) return new ImageFetchError('timeout', `no complete answer within ${timeoutMs} ms`, true, url.href);
  const failure = error as NodeJS.ErrnoException;
  if (failure.name === 'AbortError' || failure.code === 'ABORT_ERR') return new ImageFetchError('aborted', 'the fetch was cancelled', true, url.href);
  const code = failure.code ?? '';
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code) || /certificate|tls|ssl/i.test(failure.message)) {
    return new ImageFetchError('tls', `TLS failure with ${url.host}: ${code || failure.message}`, false, url.href);
  }
  if (code === 'HPE_HEADER_OVERFLOW' || code.startsWith('HPE_')) return new ImageFetchError('connection', `malformed HTTP answer from ${url.host} (${code})`, false, url.href);
  const transient = TRANSIENT_CODES.has(code) || failure.message === 'socket hang up' || code === '';
  return new ImageFetchError('connection', `connection to ${url.host} failed: ${code || failure.message}`, transient, url.href);
}

function checkUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = base ? new URL(text, base) : new URL(text);
  } catch {
    throw new ImageFetchError(base ? 'bad-redirect' : 'invalid-url', base ? `the redirect target ${JSON.stringify(text)} is not a URL` : `${JSON.stringify(text)} is not a URL`, false, base?.href ?? text);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ImageFetchError('bad-scheme', `${url.protocol} URLs are not fetched, only http: and https:`, false, url.href);
  }
  if (url.username || url.password) throw new ImageFetchError('credentials', 'URLs with a user name or password are not fetched', false, `${url.protocol}//${url.host}${url.pathname}`);
  return url;
}

/**
 * Fetches an image over http(s) without letting the URL reach the archive's own network: see the module
 * comment. Throws ImageFetchError, whose `transient` says whether a later retry may succeed.
 */
export async function fetchImage(input: string, options: FetchImageOptions): Promise<FetchedImage> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const policy = options.addressPolicy ?? (options.allowPrivate ? anyAddress : publicOnly);
  const resolve = options.resolve ?? defaultResolver;
  let url = checkUrl(input);

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onOuterAbort = (): void => controller.abort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  if (options.signal?.aborted) controller.abort();
  const aborted = new Promise<never>((_resolve, reject) => {
    controller.signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })), { once: true });
  });
  aborted.catch(() => undefined);
  const limits: Limits = { maxBytes, userAgent: options.userAgent ?? DEFAULT_USER_AGENT, signal: controller.signal };

  try {
    for (let redirects = 0; ; redirects++) {
      let response: IncomingMessage;
      try {
        const addresses = await Promise.race([addressesOf(url, resolve), aborted]);
        vet(url, addresses, policy);
        response = await Promise.race([requestHop(url, addresses, limits), aborted]);
      } catch (error) {
        throw translate(error, url, timedOut, timeoutMs);
      }
      const status = response.statusCode ?? 0;
      if (REDIRECTS.has(status)) {
        response.destroy();
        const location = response.headers.location;
        if (!location) throw new ImageFetchError('bad-redirect', `HTTP ${status} without a Location header`, false, url.href, status);
        if (redirects >= maxRedirects) throw new ImageFetchError('too-many-redirects', `more than ${maxRedirects} redirects`, false, url.href, status);
        url = checkUrl(location, url);
        continue;
      }
      if (status !== 200 && status !== 203) {
        response.destroy();
        throw new ImageFetchError('http-status', `HTTP ${status}${response.statusMessage ? ` ${response.statusMessage}` : ''}`, isTransientStatus(status), url.href, status);
      }
      let bytes: Buffer;
      try {
        bytes = await Promise.race([readBody(response, url, maxBytes), aborted]);
      } catch (error) {
        response.destroy();
        throw translate(error, url, timedOut, timeoutMs);
      }
      const contentType = response.headers['content-type'];
      return { bytes, finalUrl: url.href, redirects, ...(contentType ? { contentType } : {}) };
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
    controller.abort();
  }
}
