import { BoundedCache } from '../bounded-cache.ts';
import { localizeRecord } from './localize.ts';
import type { RecordStore } from './ports.ts';
import type { Lang } from './record.ts';

/** Changes read from the feed at once; a process further behind drops everything it keeps. */
const FOLLOWED_CHANGES = 1024;

/**
 * A string's UTF-8 bytes in memory of their own: Buffer.from takes short buffers from a shared
 * 8 KB pool, and a kept slice would keep its whole slab alive after the others are dropped.
 */
function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

/**
 * Localized records as JSON in UTF-8, kept by each process up to a memory bound in bytes (least
 * recently used first out). A page of search results is mostly records other pages showed
 * before, and reading, parsing, localizing and serializing a record costs about twenty times
 * looking it up here. Kept as bytes, the form an answer is sent in: an answer is their
 * concatenation, never encoded again, and a Chinese record takes 60 % of the memory its text
 * would (V8 holds such text at two bytes a character). Kept current through the store's change
 * feed: before answering at a new catalog change number, the records changed or removed since
 * the last one are dropped (all of them when more than 1,024 changed), so an answer never holds
 * a record older than the catalog it was computed at.
 */
export class PresentedRecords {
  /** By record id, each language's JSON that was asked for: a key the search's ids already are, so a lookup builds no string (`lang:id` cost five times the lookup). */
  private readonly entries: BoundedCache<Partial<Record<Lang, Buffer>>>;
  private seen: number | undefined;
  private following: Promise<void> | undefined;

  constructor(
    private readonly store: RecordStore,
    private readonly baseUrl: string,
    maxBytes: number,
  ) {
    this.entries = new BoundedCache(maxBytes, (key, languages) => key.length + (languages.zh?.length ?? 0) + (languages.en?.length ?? 0));
  }

  /** The JSON of each id's record in lang as UTF-8, in the ids' order; ids without a record are left out. */
  async json(ids: readonly string[], lang: Lang, changeNumber: number): Promise<Buffer[]> {
    await this.follow(changeNumber);
    const found: (Buffer | undefined)[] = ids.map((id) => this.entries.get(id)?.[lang]);
    const missing = ids.filter((_, i) => found[i] === undefined);
    if (missing.length > 0) {
      const fetched = new Map<string, Buffer>();
      for (const record of await this.store.getRecords(missing)) {
        const json = ownBytes(JSON.stringify(localizeRecord(record, lang, this.baseUrl)));
        fetched.set(record.id, json);
        // A record read while the catalog moved on may be newer than changeNumber: keep it only when nothing changed meanwhile.
        if (this.seen === changeNumber) this.entries.set(record.id, { ...this.entries.get(record.id), [lang]: json });
      }
      ids.forEach((id, i) => {
        if (found[i] === undefined) found[i] = fetched.get(id);
      });
    }
    return found.filter((json): json is Buffer => json !== undefined);
  }

  /** Bytes held: the records' UTF-8 and their keys' characters. */
  get size(): number {
    return this.entries.bytes;
  }

  /** Drops what changed between the last change number seen and this one. */
  private async follow(changeNumber: number): Promise<void> {
    while (this.seen !== changeNumber) {
      if (this.following) {
        await this.following;
        continue;
      }
      const from = this.seen;
      this.following = (async () => {
        if (from === undefined || changeNumber < from) {
          this.entries.clear();
        } else {
          const [changed, removed] = await Promise.all([this.store.changesSince(from, FOLLOWED_CHANGES), this.store.removalsSince(from, FOLLOWED_CHANGES)]);
          if (changed.length === FOLLOWED_CHANGES || removed.length === FOLLOWED_CHANGES) this.entries.clear();
          for (const { id } of [...changed, ...removed]) this.entries.delete(id);
        }
        this.seen = changeNumber;
      })().finally(() => {
        this.following = undefined;
      });
      await this.following;
    }
  }
}
