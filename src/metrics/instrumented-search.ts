import type { SearchIndex } from '../domain/ports.ts';
import type { HttpMetrics } from './archive-metrics.ts';

/**
 * The search index with every query timed into archive_search_duration_seconds. Every other
 * member is the index's own, called on the index itself, whatever the port grows to hold.
 */
export function timedSearch(search: SearchIndex, metrics: HttpMetrics): SearchIndex {
  const timed: SearchIndex['search'] = async (query) => {
    const end = metrics.searchSeconds.startTimer();
    try {
      return await search.search(query);
    } finally {
      end();
    }
  };
  return new Proxy(search, {
    get(target, property) {
      if (property === 'search') return timed;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
