/**
 * The search index of a backend whose index follows the store (Meilisearch): the index itself,
 * except that a search answers SearchIndexFilling (503 with Retry-After) while the index sync
 * fills it from the store, instead of an answer of 0 results (or a few) that caches and a client
 * would believe: while the `search-refill` checkpoint is set (read at most once a second, and again
 * for a search that found nothing), and whenever a search finds nothing in an index that holds no
 * document while the store holds records (created empty at a first start or after a deletion,
 * before the sync began filling it).
 */
import { SEARCH_REFILL_CHECKPOINT } from '../../indexer/search-sync.ts';
import type { IndexInspection, IndexRecord, RecordStore, RecordVersion, SearchIndex } from '../domain/ports.ts';
import { SearchIndexFilling } from '../domain/ports.ts';
import type { Lang } from '../domain/record.ts';
import type { SearchHits, SearchQuery } from '../domain/search-query.ts';

/** How long a read of the refill checkpoint is reused by searches. */
export const REFILL_READ_TTL_MS = 1000;

export class FollowingSearchIndex implements SearchIndex {
  private refill: { at: number; filling: Promise<boolean> } | undefined;
  /** The index's own inspection, when it has one (search-sync.ts asks only an index that has). */
  readonly inspect?: () => Promise<IndexInspection>;

  constructor(
    private readonly index: SearchIndex,
    private readonly store: Pick<RecordStore, 'readCheckpoint' | 'catalogState'>,
  ) {
    if (index.inspect) this.inspect = () => index.inspect!();
  }

  get mappingVersion(): number | undefined {
    return this.index.mappingVersion;
  }

  get opened(): Promise<void> | undefined {
    return this.index.opened;
  }

  private refilling(fresh = false): Promise<boolean> {
    const now = performance.now();
    if (fresh || !this.refill || now - this.refill.at >= REFILL_READ_TTL_MS) {
      const filling = this.store.readCheckpoint(SEARCH_REFILL_CHECKPOINT).then((until) => until > 0);
      // A failed read is not reused: the next search asks again.
      filling.catch(() => (this.refill = undefined));
      this.refill = { at: now, filling };
    }
    return this.refill.filling;
  }

  async search(query: SearchQuery): Promise<SearchHits> {
    if (await this.refilling()) throw new SearchIndexFilling();
    const hits = await this.index.search(query);
    if (hits.total > 0) return hits;
    // Nothing found: asked again without the reuse (a refill may have begun within the second).
    if (await this.filling()) throw new SearchIndexFilling();
    return hits;
  }

  /** Whether the index sync fills the index now: the refill checkpoint set (read afresh), or no document indexed while the store holds records. */
  async filling(): Promise<boolean> {
    const [refilling, indexed, catalog] = await Promise.all([this.refilling(true), this.index.count(), this.store.catalogState()]);
    return refilling || (indexed === 0 && catalog.total > 0);
  }

  upsert(records: readonly IndexRecord[]): Promise<void> {
    return this.index.upsert(records);
  }

  remove(ids: readonly string[]): Promise<void> {
    return this.index.remove(ids);
  }

  streamVersions(lang: Lang, batchSize?: number): AsyncIterable<RecordVersion> {
    return this.index.streamVersions(lang, batchSize);
  }

  count(): Promise<number> {
    return this.index.count();
  }

  ping(): Promise<void> {
    return this.index.ping();
  }

  close(): Promise<void> {
    return this.index.close();
  }
}
