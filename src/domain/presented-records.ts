import { BoundedCache } from '../bounded-cache.ts';
import { localizeRecord } from './localize.ts';
import type { RecordStore } from './ports.ts';
import { LANGS } from './record.ts';
import type { Lang } from './record.ts';

/** Changes read from the feed at once; a process further behind drops everything it keeps. */
const FOLLOWED_CHANGES = 1024;

/**
 * Localized records as JSON text, kept by each process up to a memory bound (least recently used
 * first out). A page of search results is mostly records other pages showed before, and reading,
 * parsing, localizing and serializing a record costs about twenty times looking it up here. Kept
 * current through the store's change feed: before answering at a new catalog change number, the
 * records changed or removed since the last one are dropped (all of them when more than 1,024
 * changed), so an answer never holds a record older than the catalog it was computed at.
 */
export class PresentedRecords {
  private readonly entries: BoundedCache<string>;
  private seen: number | undefined;
  private following: Promise<void> | undefined;

  constructor(
    private readonly store: RecordStore,
    private readonly baseUrl: string,
    maxBytes: number,
  ) {
    this.entries = new BoundedCache(maxBytes, (key, json) => key.length + json.length);
  }

  /** The JSON of each id's record in lang, in the ids' order; ids without a record are left out. */
  async json(ids: readonly string[], lang: Lang, changeNumber: number): Promise<string[]> {
    await this.follow(changeNumber);
    const found: (string | undefined)[] = ids.map((id) => this.entries.get(`${lang}:${id}`));
    const missing = ids.filter((_, i) => found[i] === undefined);
    if (missing.length > 0) {
      const fetched = new Map<string, string>();
      for (const record of await this.store.getRecords(missing)) {
        const json = JSON.stringify(localizeRecord(record, lang, this.baseUrl));
        fetched.set(record.id, json);
        // A record read while the catalog moved on may be newer than changeNumber: keep it only when nothing changed meanwhile.
        if (this.seen === changeNumber) this.entries.set(`${lang}:${record.id}`, json);
      }
      ids.forEach((id, i) => {
        if (found[i] === undefined) found[i] = fetched.get(id);
      });
    }
    return found.filter((json): json is string => json !== undefined);
  }

  /** Bytes of JSON held (UTF-16 code units of text and keys). */
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
          for (const { id } of [...changed, ...removed]) for (const lang of LANGS) this.entries.delete(`${lang}:${id}`);
        }
        this.seen = changeNumber;
      })().finally(() => {
        this.following = undefined;
      });
      await this.following;
    }
  }
}
