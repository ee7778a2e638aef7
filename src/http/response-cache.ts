import { createHash } from 'node:crypto';
import { BoundedCache } from '../bounded-cache.ts';
import { SERVICE_VERSION } from './service-version.ts';
import type { CatalogState } from '../domain/ports.ts';

/** What a cached answer was computed from: a change number, or a change number and how far the search index has followed. */
export type CatalogVersion = number | string;

/** A serialized response with its entity tag (the body as text, or already encoded as UTF-8). */
export interface CachedResponse {
  body: string | Buffer;
  etag: string;
  /** Headers that follow from the body (e.g. Link). */
  headers?: Record<string, string>;
}

/**
 * The entity tag of a response body: weak, because the same tag goes with the body in every
 * content coding the client may be sent (identity, gzip, br), and a strong tag must differ
 * between those (RFC 9110 §8.8.3). If-None-Match compares weakly, so 304s work alike.
 */
export function entityTag(body: string | Buffer): string {
  return `W/"${createHash('sha1').update(body).digest('base64url')}"`;
}

/**
 * The entity tag of a body streamed from the store, which is sent before it could be hashed:
 * named by what the body is, the catalog's change number with its mark (CatalogState.changeStamp:
 * the number alone repeats in another database, or after a backup is restored), and `writtenWith`
 * (writtenWithOf), so that it changes whenever the body can. Weak, as entityTag's.
 */
export function streamedEntityTag(name: string, catalog: Pick<CatalogState, 'changeNumber' | 'changeStamp'>, writtenWith: string): string {
  return `W/"${name}-${catalog.changeNumber}${catalog.changeStamp ? `.${catalog.changeStamp}` : ''}-${writtenWith}"`;
}

/**
 * What every streamed body is written with besides the catalog, as a short hash: the service's
 * version (how answers are written) and its base URL (in every record's url, media and citation).
 * An archive moved to another address, or a release, gives every such body a new tag.
 */
export function writtenWithOf(baseUrl: string): string {
  return createHash('sha1').update(`${SERVICE_VERSION}\n${baseUrl}`).digest('base64url').slice(0, 8);
}

/**
 * Responses of read routes, kept per process and tagged with the version of the catalog they were
 * computed at (see answersVersion): any write to the catalog makes every entry stale. Bounded by
 * the bytes of the bodies it holds; least recently used entries go first.
 */
export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse & { version: CatalogVersion }>();
  private bytes = 0;
  /** Keys asked recently, bounded by 1/32 of the capacity (see askedBefore). */
  private readonly asked: BoundedCache<true>;

  constructor(private readonly capacityBytes: number) {
    this.asked = new BoundedCache(capacityBytes / 32, (key) => key.length + 16);
  }

  /**
   * Whether the response for key is worth keeping: only when the key was asked recently before
   * (a doorkeeper). A response asked once and never again (most distinct searches) would only
   * push out responses that are asked again, and feed the garbage collector 20 KB bodies.
   */
  askedBefore(key: string): boolean {
    if (this.asked.get(key)) return true;
    this.asked.set(key, true);
    return false;
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.body.length + key.length;
    this.entries.delete(key);
  }

  get(key: string, version: CatalogVersion): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version) {
      this.drop(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, version: CatalogVersion, response: CachedResponse): void {
    const size = response.body.length + key.length;
    if (response.body.length > this.capacityBytes / 4) return;
    this.drop(key);
    this.entries.set(key, { ...response, version });
    this.bytes += size;
    while (this.bytes > this.capacityBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.drop(oldest.value);
    }
  }

  /** Characters of bodies and keys held (a bound on memory, counting UTF-16 code units). */
  get size(): number {
    return this.bytes;
  }
}
