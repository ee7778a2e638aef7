import { join } from 'node:path';
import type { SearchQuery } from '../../src/domain/search-query.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import type { SqliteDatabase } from '../../src/store/sqlite/database.ts';
import { migrateSchema } from '../../src/store/sqlite/schema.ts';
import { temporaryDataDir } from './server.ts';

/** The query a bench search path asks for: its text, filters, order and page. */
export function queryOfPath(path: string): SearchQuery {
  const params = new URL(path, 'http://archive.test').searchParams;
  const text = params.get('q') ?? undefined;
  const filters: SearchQuery['filters'] = {};
  for (const name of ['source', 'format', 'kind', 'year'] as const) {
    const value = params.get(name);
    if (value) Object.assign(filters, { [name]: value.split(',') });
  }
  return {
    lang: params.get('lang') === 'en' ? 'en' : 'zh',
    ...(text ? { text } : {}),
    filters,
    order: (params.get('sort') as SearchQuery['order'] | null) ?? 'relevance',
    offset: Number(params.get('offset') ?? 0),
    limit: Number(params.get('limit') ?? 20),
  };
}

/** A new data folder holding a migrated archive database, open. */
export function migratedDatabase(): { dataDir: string; path: string; db: SqliteDatabase } {
  const dataDir = temporaryDataDir();
  const path = join(dataDir, 'archive.sqlite');
  const db = openDatabase(path);
  migrateSchema(db);
  return { dataDir, path, db };
}
