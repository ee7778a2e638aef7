import { createHash } from 'node:crypto';

/** A serialized JSON response with its entity tag. */
export interface CachedResponse {
  body: string;
  etag: string;
}

/** The strong entity tag of a response body. */
export function entityTag(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/**
 * Responses of read routes, kept per process and tagged with the catalog change number they were
 * computed at: any write to the catalog makes every entry stale. Least recently used entries go first.
 */
export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse & { changeNumber: number }>();

  constructor(private readonly capacity: number) {}

  get(key: string, changeNumber: number): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.changeNumber !== changeNumber) {
      this.entries.delete(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, changeNumber: number, response: CachedResponse): void {
    if (this.capacity === 0) return;
    this.entries.delete(key);
    this.entries.set(key, { ...response, changeNumber });
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }
}
