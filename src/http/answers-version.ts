import { SEARCH_SYNC_CHECKPOINT } from '../../indexer/search-sync.ts';
import type { Backend } from '../backend.ts';
import type { CatalogVersion } from './response-cache.ts';

/** The store's change number, and the key cached answers are kept under. */
export interface AnswersVersion {
  changeNumber: number;
  key: CatalogVersion;
}

/**
 * The version of the catalog that read answers (lists, search pages) are computed from, for the
 * response cache. Answers join records from the store with ids and totals from the search index.
 * On the embedded pair both change in one transaction, so the store's change number is the
 * version. A search index that follows the store (Meilisearch) reaches a change later: an answer
 * computed in between misses it, so the key also holds how far the index sync has confirmed (its
 * checkpoint), and such an answer is computed again once the index has caught up instead of
 * being served until the next write.
 */
export function answersVersion(backend: Pick<Backend, 'store' | 'searchFollowsStore'>): () => Promise<AnswersVersion> {
  const { store } = backend;
  if (!backend.searchFollowsStore) {
    return async () => {
      const { changeNumber } = await store.catalogState();
      return { changeNumber, key: changeNumber };
    };
  }
  return async () => {
    const [{ changeNumber }, indexed] = await Promise.all([store.catalogState(), store.readCheckpoint(SEARCH_SYNC_CHECKPOINT)]);
    return { changeNumber, key: `${changeNumber}/${indexed}` };
  };
}
