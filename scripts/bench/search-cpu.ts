/**
 * CPU per distinct search in one process, without HTTP: where a search's time goes, measured in
 * CPU time (which a busy machine's scheduling inflates far less than wall time). Over an archive
 * database (one `npm run catalog -- import` made), it answers WARM distinct searches of the bench's
 * mix, then COUNT others, and prints the CPU per answer and the latency of each query class.
 *
 *   node --import tsx scripts/bench/search-cpu.ts DATA_DIR
 *
 * Environment: MODE (`search`: the index alone; `answer`: the API's JSON answer, records and all),
 * READ_AHEAD (`start`: only the sets a server reads ahead before it reports ready; by default also
 * those it reads in the background after), WARM (8000), COUNT (4000), RECORD_CACHE_MB (the record
 * cache of `answer`, 80), PROFILE (a file: a V8 CPU profile of the measured searches).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { PresentedRecords } from '../../src/domain/presented-records.ts';
import { listJson, listQuery, listSpecimensJson, sourceTableOf } from '../../src/domain/specimens.ts';
import { SqliteSearchIndex } from '../../src/search/sqlite/sqlite-search.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { SqliteRecordStore } from '../../src/store/sqlite/sqlite-store.ts';
import { parseSearchParams } from '../../src/validation/read-params.ts';
import type { RawQuery } from '../../src/validation/read-params.ts';
import { distinctSearches } from './queries.ts';
import { setting } from './settings.ts';

const BASE = 'http://archive.test';

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: search-cpu.ts DATA_DIR');
  const mode = process.env.MODE === 'answer' ? 'answer' : 'search';
  const warm = setting('WARM', 8000);
  const count = setting('COUNT', 4000);
  const db = openDatabase(join(dataDir, 'archive.sqlite'));
  const search = new SqliteSearchIndex(db);
  const store = new SqliteRecordStore(db, search);
  // As a server does before it reports ready, then (unless READ_AHEAD=start) what it reads ahead in the background after.
  const warmStarted = performance.now();
  const readAhead = search.warm() + (process.env.READ_AHEAD === 'start' ? 0 : search.readAheadMore(Infinity));
  console.log(`warm: ${readAhead} sets read ahead in ${((performance.now() - warmStarted) / 1000).toFixed(1)} s (vocabulary and keys included), ${search.readAheadLeft} left`);
  const context = { store, search, baseUrl: BASE, presented: new PresentedRecords(store, BASE, setting('RECORD_CACHE_MB', 80) * 1024 * 1024) };
  const { changeNumber } = store.catalogStateNow();
  const made = distinctSearches(count + warm, 20261122);
  const sourceKeys = (await sourceTableOf(context, changeNumber)).keys;
  const answer = async (path: string): Promise<unknown> => {
    const raw = Object.fromEntries(new URL(path, BASE).searchParams) as RawQuery;
    const params = parseSearchParams(raw, 'specimens', { fromQueryString: true, exportsHint: '', sourceKeys });
    if (mode === 'answer') return listJson(await listSpecimensJson(context, params, 'specimens', changeNumber));
    const query = listQuery(params, 'specimens');
    return search.search({ lang: query.lang, ...(query.text === undefined ? {} : { text: query.text }), filters: query.filters, order: query.order, offset: params.offset, limit: params.limit });
  };
  for (const path of made.paths.slice(count)) await answer(path);

  const session = new Session();
  if (process.env.PROFILE) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const latencies = new Map<string, number[]>();
  const before = process.cpuUsage();
  for (const [i, path] of made.paths.slice(0, count).entries()) {
    const started = performance.now();
    await answer(path);
    const tag = made.tags[i] ?? '';
    latencies.set(tag, [...(latencies.get(tag) ?? []), performance.now() - started]);
  }
  const used = process.cpuUsage(before);
  if (process.env.PROFILE) writeFileSync(process.env.PROFILE, JSON.stringify((await session.post('Profiler.stop')).profile));
  console.log(`${mode}: ${Math.round((used.user + used.system) / count)} us CPU per answer (${count} distinct searches after ${warm} others)`);
  const kept = search.rowSetUse();
  console.log(`  row sets kept: ${kept.sets}, ${(kept.bytes / 2 ** 20).toFixed(1)} MB of ${(kept.maxBytes / 2 ** 20).toFixed(0)} MB; heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB, RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`);
  for (const [tag, list] of [...latencies].sort()) {
    list.sort((a, b) => a - b);
    const at = (q: number): string => (list[Math.floor(q * list.length)] ?? 0).toFixed(2);
    const sum = list.reduce((total, ms) => total + ms, 0);
    console.log(`  ${tag.padEnd(8)} ${String(list.length).padStart(5)}  mean ${(sum / list.length).toFixed(2)} ms (${(sum / 1000).toFixed(2)} s in all)  p50 ${at(0.5)} ms  p90 ${at(0.9)} ms  p99 ${at(0.99)} ms`);
  }
  db.close();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
