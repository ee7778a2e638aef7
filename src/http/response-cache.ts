import { createHash } from 'node:crypto';

/** A serialized JSON response with its entity tag. */
export interface CachedResponse {
  body: string;
  etag: string;
  /** Headers that follow from the body (e.g. Link). */
  headers?: Record<string, string>;
}

/** The strong entity tag of a response body. */
export function entityTag(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/**
 * Responses of read routes, kept per process and tagged with the catalog change number they were
 * computed at: any write to the catalog makes every entry stale. Bounded by the bytes of the
 * bodies it holds; least recently used entries go first.
 */
export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse & { changeNumber: number }>();
  private bytes = 0;

  constructor(private readonly capacityBytes: number) {}

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.body.length + key.length;
    this.entries.delete(key);
  }

  get(key: string, changeNumber: number): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.changeNumber !== changeNumber) {
      this.drop(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, changeNumber: number, response: CachedResponse): void {
    const size = response.body.length + key.length;
    if (response.body.length > this.capacityBytes / 4) return;
    this.drop(key);
    this.entries.set(key, { ...response, changeNumber });
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
