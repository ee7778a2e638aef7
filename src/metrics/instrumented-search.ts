import type { SearchIndex } from '../domain/ports.ts';
import type { HttpMetrics } from './archive-metrics.ts';

/** The search index with every query timed into archive_search_duration_seconds. */
export function timedSearch(search: SearchIndex, metrics: HttpMetrics): SearchIndex {
  return {
    upsert: (records) => search.upsert(records),
    remove: (ids) => search.remove(ids),
    streamVersions: (lang, batchSize) => search.streamVersions(lang, batchSize),
    count: () => search.count(),
    ping: () => search.ping(),
    close: () => search.close(),
    search: async (query) => {
      const end = metrics.searchSeconds.startTimer();
      try {
        return await search.search(query);
      } finally {
        end();
      }
    },
  };
}
