import { expect } from 'chai';
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openBackend, warnOfSharedWorks } from '../../src/backend.ts';
import { bvidOfAid } from '../../src/domain/bilibili-id.ts';
import { createLogger } from '../../src/logger.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import type { SqliteDatabase } from '../../src/store/sqlite/database.ts';
import { MIGRATIONS, SchemaTooNewError, migrateSchema } from '../../src/store/sqlite/schema.ts';
import type { Migration } from '../../src/store/sqlite/schema.ts';
import { ADDED_SOURCE_HOSTS, currentSourceRule, REPLACED_SOURCE_RULES, workKey } from '../../src/domain/sources.ts';
import { makeRecord } from '../helpers/factories.ts';
import { SqliteSearchIndex } from '../../src/search/sqlite/sqlite-search.ts';
import { SqliteRecordStore } from '../../src/store/sqlite/sqlite-store.ts';
import { temporaryDataDir } from '../helpers/server.ts';
import { writeArchiveBeforeWorkKeyRules3 } from '../helpers/backend.ts';

/**
 * An archive database written by the code of 2026-11-23, before the schema had one owner (ledger
 * at store v4 and search v2): three records, one removal, a follower checkpoint, a token, a
 * queued submission with its Idempotency-Key. Made with openBackend({ migrate: true }), the
 * store, token and queue adapters, then VACUUMed with 1 KB pages to keep it small.
 */
const WRITTEN_2026_11_23 = new URL('../fixtures/archive-2026-11-23.sqlite', import.meta.url).pathname;

/** Every table, index and trigger of a database, as SQLite holds their definitions. */
function schemaOf(db: SqliteDatabase): { type: string; name: string; sql: string | null }[] {
  return db.prepare<[], { type: string; name: string; sql: string | null }>("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all();
}

function ledgerOf(db: SqliteDatabase): { area: string; version: number }[] {
  return db.prepare<[], { area: string; version: number }>('SELECT component AS area, version FROM schema_migrations ORDER BY component, version').all();
}

describe('SQLite schema', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = temporaryDataDir();
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('numbers each area 1, 2, 3 … in the order the list applies them', () => {
    const areas = new Map<string, number>();
    for (const migration of MIGRATIONS) {
      expect(migration.version, `${migration.area} v${migration.version}`).to.equal((areas.get(migration.area) ?? 0) + 1);
      areas.set(migration.area, migration.version);
    }
  });

  it('upgrades a database written before the schema had one owner to what a new database gets', () => {
    const upgraded = join(dataDir, 'old.sqlite');
    copyFileSync(WRITTEN_2026_11_23, upgraded);
    const old = openDatabase(upgraded);
    const fresh = openDatabase(join(dataDir, 'new.sqlite'));
    try {
      migrateSchema(old);
      migrateSchema(fresh);
      expect(schemaOf(old)).to.deep.equal(schemaOf(fresh));
      expect(ledgerOf(old)).to.deep.equal(ledgerOf(fresh));
    } finally {
      old.close();
      fresh.close();
    }
  });

  it('opens that database with every adapter and keeps its records, index, feed, tokens and queue', async () => {
    const file = join(dataDir, 'archive.sqlite');
    copyFileSync(WRITTEN_2026_11_23, file);
    const backend = await openBackend({ databaseFile: file }, { migrate: true });
    try {
      // The steps applied, which a start logs: those the ledger lacked, the newest among them.
      expect(backend.schemaMigrated).to.include.members(['store v8', 'store v9', 'store v10', 'record-fates v4', 'source-table v2']);
      const state = await backend.store.catalogState();
      expect(state).to.include({ total: 3, changeNumber: 5, updated: '2026-11-23' });
      expect(await backend.store.readCheckpoint('meili')).to.equal(2);
      expect(await backend.store.removalsSince(0, 10)).to.have.length(1);
      expect((await backend.search.search({ lang: 'en', text: 'pelican', filters: {}, order: 'relevance', offset: 0, limit: 10 })).total).to.equal(1);
      expect((await backend.search.search({ lang: 'zh', text: '茶壶', filters: {}, order: 'relevance', offset: 0, limit: 10 })).total).to.equal(1);
      // Re-indexed with the trigram blocks of search v7: a substring of three characters is their phrase.
      expect((await backend.search.search({ lang: 'zh', text: '骑自行', filters: {}, order: 'relevance', offset: 0, limit: 10 })).total).to.equal(1);
      expect((await backend.search.search({ lang: 'en', filters: { kind: ['timeline'] }, order: 'newest', offset: 0, limit: 10 })).total).to.equal(1);
      expect((await backend.tokens.findActiveToken('a'.repeat(64)))?.name).to.equal('fixture-bot');
      expect(await backend.submissions.countByStatus()).to.deep.equal({ queued: 1 });
      // The fixture's key was written on 2026-11-23; keys are kept 24 hours, so it is made recent
      // (in this copy) for the replay to test what the upgrade kept rather than today's date.
      const clock = openDatabase(file);
      clock.prepare('UPDATE idempotency_requests SET created_at = ?').run(Date.now());
      clock.close();
      const replay = await backend.submissions.enqueue([], { tokenName: 'fixture-bot', key: 'k1', requestSha256: 'b'.repeat(64) });
      expect(replay.kind).to.equal('replay');
      const [queued] = await backend.submissions.listSubmissions({ status: 'queued', limit: 5 });
      expect(queued).to.deep.include({ reviews: [], batchId: null });
      expect((await backend.sources.listSources()).map((source) => source.key)).to.include.members(['x', 'github', 'reddit']);

      // And it takes new writes: a record, found by search, after the records it already held.
      const added = makeRecord({ sourceUrl: 'https://github.com/factory-author/added-after-upgrade', title: { zh: '新的作品', en: 'Lighthouse at dusk' } });
      await backend.store.putRecords([added]);
      expect((await backend.search.search({ lang: 'en', text: 'lighthouse', filters: {}, order: 'relevance', offset: 0, limit: 10 })).ids).to.deep.equal([added.id]);
      expect((await backend.store.changesSince(5, 10)).map((record) => record.id)).to.deep.equal([added.id]);
    } finally {
      await backend.close();
    }
  });

  it('keeps the Idempotency-Keys of queued requests across the upgrade that stores ids instead of answers', async () => {
    const file = join(dataDir, 'archive.sqlite');
    const db = openDatabase(file);
    const before = MIGRATIONS.filter((migration) => migration.area === 'store' || migration.area === 'search');
    const now = Date.now();
    try {
      migrateSchema(db, before);
      const insert = db.prepare('INSERT INTO idempotency_keys (token_name, key, request_sha256, status, body, created_at) VALUES (?, ?, ?, 202, ?, ?)');
      insert.run('bot', 'one', 'a'.repeat(64), JSON.stringify({ submissionId: 'sub_1', status: 'queued', statusUrl: 'http://archive.test/api/v1/ingest/sub_1' }), now);
      insert.run('bot', 'batch', 'b'.repeat(64), JSON.stringify({ accepted: 2, rejected: 1, items: [{ index: 0, submissionId: 'sub_2' }, { index: 1, status: 'rejected', errors: [] }, { index: 2, submissionId: 'sub_3' }] }), now);
    } finally {
      db.close();
    }
    const backend = await openBackend({ databaseFile: file }, { migrate: true });
    try {
      expect(await backend.submissions.enqueue([], { tokenName: 'bot', key: 'one', requestSha256: 'a'.repeat(64) })).to.deep.equal({ kind: 'replay', submissionIds: ['sub_1'], batchId: null });
      expect(await backend.submissions.enqueue([], { tokenName: 'bot', key: 'batch', requestSha256: 'b'.repeat(64) })).to.deep.equal({ kind: 'replay', submissionIds: ['sub_2', 'sub_3'], batchId: null });
      expect(await backend.submissions.enqueue([], { tokenName: 'bot', key: 'one', requestSha256: 'c'.repeat(64) })).to.deep.equal({ kind: 'key-reused' });
    } finally {
      await backend.close();
    }
  });

  it('gives records stored before store v6 their work keys, so the duplicate check finds them under a folded URL', async () => {
    const file = join(dataDir, 'archive.sqlite');
    const db = openDatabase(file);
    const mixedCase = { ...makeRecord(), sourceUrl: 'https://github.com/Demo-Lin/Pelican-SVG' };
    const withHandle = makeRecord({ sourceUrl: 'https://x.com/demo_mira/status/1790000000000000000' });
    try {
      migrateSchema(db, MIGRATIONS.filter((migration) => !(migration.area === 'store' && migration.version >= 6)));
      const insert = db.prepare('INSERT INTO records (id, kind, source, format, date, source_url, model, seq, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
      [mixedCase, withHandle].forEach((record, index) => insert.run(record.id, record.kind, record.source, record.format, record.date, record.sourceUrl, record.model, index + 1, JSON.stringify(record)));
    } finally {
      db.close();
    }
    const backend = await openBackend({ databaseFile: file }, { migrate: true });
    try {
      expect((await backend.store.findByWorkKey(workKey('https://github.com/demo-lin/pelican-svg'))).map((record) => record.id)).to.deep.equal([mixedCase.id]);
      expect((await backend.store.findByWorkKey(workKey('https://x.com/i/web/status/1790000000000000000'))).map((record) => record.id)).to.deep.equal([withHandle.id]);
    } finally {
      await backend.close();
    }
  });

  it('computes work keys again by the rules of 2026-11-26 and takes the new built-in rules where a stored source keeps an old one', async () => {
    const file = join(dataDir, 'archive.sqlite');
    const db = openDatabase(file);
    const reddit = makeRecord({ sourceUrl: 'https://reddit.com/r/LocalLLaMA/comments/1eg3dm0/demo_tandem_pelicans' });
    const withdrawnShort = 'https://youtube.com/shorts/demoFlight2';
    const later = new Set(['store 8', 'store 9', 'store 10', 'store 11', 'record-fates 4', 'record-fates 5', 'source-table 2', 'source-table 3']);
    try {
      migrateSchema(db, MIGRATIONS.filter((migration) => !later.has(`${migration.area} ${migration.version}`)));
      // As an earlier version wrote them: each key the URL itself, the rules of that version.
      db.prepare('INSERT INTO records (id, kind, source, format, date, source_url, model, work_key, seq, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(reddit.id, reddit.kind, reddit.source, reddit.format, reddit.date, reddit.sourceUrl, reddit.model, reddit.sourceUrl, 1, JSON.stringify(reddit));
      db.prepare("INSERT INTO record_fates (id, moved_to, reason, at, source_url, title, work_key) VALUES ('video-o3-withdrawn', NULL, 'a takedown', '2026-11-20T00:00:00Z', ?, '{}', ?)").run(withdrawnShort, withdrawnShort);
      for (const { key, field, was } of REPLACED_SOURCE_RULES) db.prepare(`UPDATE sources SET definition = json_set(definition, '$.${field}', ?) WHERE key = ?`).run(was, key);
      db.prepare("UPDATE sources SET definition = json_set(definition, '$.handlePattern', '^/maintainers/([a-z]+)/') WHERE key = 'weibo'").run();
    } finally {
      db.close();
    }
    const backend = await openBackend({ databaseFile: file }, { migrate: true });
    try {
      expect((await backend.store.findByWorkKey(workKey('https://reddit.com/comments/1eg3dm0'))).map((record) => record.id)).to.deep.equal([reddit.id]);
      expect((await backend.store.findWithdrawals(workKey('https://youtube.com/watch?v=demoFlight2'))).map((withdrawal) => withdrawal.id)).to.deep.equal(['video-o3-withdrawn']);
      const stored = new Map((await backend.sources.listSources()).map((definition) => [definition.key, definition]));
      for (const { key, field } of REPLACED_SOURCE_RULES) {
        if (key === 'weibo' && field === 'handlePattern') continue;
        expect(stored.get(key)?.[field], `${key} ${field}`).to.equal(currentSourceRule(key, field));
      }
      expect(stored.get('weibo')?.handlePattern, "a maintainer's rule").to.equal('^/maintainers/([a-z]+)/');
    } finally {
      await backend.close();
    }
  });

  it("gives a stored table the built-in sources' short and embedded hosts, unless a stored source holds one already", async () => {
    const file = join(dataDir, 'archive.sqlite');
    const db = openDatabase(file);
    try {
      migrateSchema(db, MIGRATIONS.filter((migration) => !(migration.area === 'source-table' && migration.version >= 3)));
      // The table as an earlier version seeded it, and a maintainer's source holding music.youtube.com.
      for (const { key, host } of ADDED_SOURCE_HOSTS) {
        db.prepare("UPDATE sources SET definition = json_set(definition, '$.hosts', (SELECT json_group_array(value) FROM json_each(definition, '$.hosts') WHERE value != ?)) WHERE key = ?").run(host, key);
        db.prepare("UPDATE sources SET definition = json_set(definition, '$.aliases', (SELECT json_group_array(value) FROM json_each(definition, '$.aliases') WHERE value != ?)) WHERE key = ? AND json_type(definition, '$.aliases') = 'array'").run(host, key);
      }
      db.prepare("UPDATE sources SET definition = json_remove(definition, '$.aliases') WHERE key = 'huggingface'").run();
      db.prepare('INSERT INTO sources (key, definition) VALUES (?, ?)').run('music', JSON.stringify({ key: 'music', label: { zh: '音乐', en: 'Music' }, hosts: ['music.youtube.com'], mediaHosts: [] }));
    } finally {
      db.close();
    }
    const backend = await openBackend({ databaseFile: file }, { migrate: true });
    try {
      const stored = new Map((await backend.sources.listSources()).map((definition) => [definition.key, definition]));
      expect(stored.get('reddit')?.hosts).to.include('redd.it');
      expect(stored.get('reddit')?.aliases).to.not.include('redd.it');
      expect(stored.get('huggingface')).to.deep.include({ hosts: ['huggingface.co', 'hf.co'], aliases: ['hf.co'] });
      expect(stored.get('youtube')?.hosts).to.include('youtube-nocookie.com').and.not.include('music.youtube.com');
      expect(stored.get('youtube')?.aliases).to.deep.equal(['m.youtube.com', 'youtube-nocookie.com']);
      expect(stored.get('music')?.hosts, "a maintainer's source keeps its host").to.deep.equal(['music.youtube.com']);
    } finally {
      await backend.close();
    }
    // A new store is seeded with them, once.
    const fresh = await openBackend({ databaseFile: join(dataDir, 'fresh.sqlite') }, { migrate: true });
    try {
      const youtube = (await fresh.sources.listSources()).find((definition) => definition.key === 'youtube');
      expect(youtube?.hosts).to.deep.equal(['youtube.com', 'm.youtube.com', 'youtu.be', 'music.youtube.com', 'youtube-nocookie.com']);
      expect(youtube?.aliases).to.deep.equal(['m.youtube.com', 'music.youtube.com', 'youtube-nocookie.com']);
    } finally {
      await fresh.close();
    }
  });

  it('computes work keys again by work key rules 3, so a record or withdrawal stored at a short or embedded host, or at an av address, is found under its platform\'s address', async () => {
    const file = join(dataDir, 'archive.sqlite');
    const db = openDatabase(file);
    // Published while redd.it and youtube-nocookie.com were unknown hosts: web records, their URLs as written, keyed so.
    const shortLink = makeRecord({ source: 'web', sourceUrl: 'https://redd.it/1eg3dm1' });
    const embedded = 'https://youtube-nocookie.com/embed/demoFlight3';
    // And a Bilibili video at its old av address, keyed as that address until rules 3.
    const avAddress = makeRecord({ source: 'bilibili', sourceUrl: 'https://bilibili.com/video/av170001' });
    const later = new Set(['store 11', 'record-fates 5']);
    try {
      migrateSchema(db, MIGRATIONS.filter((migration) => !later.has(`${migration.area} ${migration.version}`)));
      const insert = db.prepare('INSERT INTO records (id, kind, source, format, date, source_url, model, work_key, seq, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
      [shortLink, avAddress].forEach((record, index) => insert.run(record.id, record.kind, record.source, record.format, record.date, record.sourceUrl, record.model, record.sourceUrl, index + 1, JSON.stringify(record)));
      db.prepare("INSERT INTO record_fates (id, moved_to, reason, at, source_url, title, work_key) VALUES ('video-o3-embedded', NULL, 'a takedown', '2026-11-20T00:00:00Z', ?, '{}', ?)").run(embedded, embedded);
      // The earlier version's last start checked them (its mend reads only what is written after).
      db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('work_keys_checked', '[2, 1]')").run();
    } finally {
      db.close();
    }
    const backend = await openBackend({ databaseFile: file }, { migrate: true });
    try {
      expect((await backend.store.findByWorkKey(workKey('https://reddit.com/r/LocalLLaMA/comments/1eg3dm1/a_slug'))).map((record) => record.id)).to.deep.equal([shortLink.id]);
      expect((await backend.store.findWithdrawals(workKey('https://youtube.com/watch?v=demoFlight3'))).map((withdrawal) => withdrawal.id)).to.deep.equal(['video-o3-embedded']);
      expect((await backend.store.findByWorkKey(workKey('https://bilibili.com/video/BV17x411w7KC'))).map((record) => record.id)).to.deep.equal([avAddress.id]);
    } finally {
      await backend.close();
    }
  });

  it('says when an opening computed the work keys by newer rules, and the start warns of the works they gave more than one record of one kind', async () => {
    const file = join(dataDir, 'archive.sqlite');
    const logged: { level: string; msg: string; works?: number }[] = [];
    const logger = createLogger('info', (line) => logged.push(JSON.parse(line) as { level: string; msg: string; works?: number }));
    // One Bilibili video at its BV and its old av address, two works until rules 3; and a work's gallery and timeline records.
    const videos = [makeRecord({ sourceUrl: 'https://bilibili.com/video/BV17x411w7KC' }), makeRecord({ sourceUrl: 'https://bilibili.com/video/av170001' })];
    const gallery = makeRecord();
    writeArchiveBeforeWorkKeyRules3(file, [...videos, gallery, makeRecord({ kind: 'timeline', sourceUrl: gallery.sourceUrl })]);
    const upgraded = await openBackend({ databaseFile: file }, { migrate: true });
    try {
      expect(upgraded.schemaMigrated).to.deep.equal(['store v11', 'record-fates v5']);
      expect(upgraded.workKeysRecomputed).to.equal(true);
      expect(await upgraded.store.sharedWorks(10)).to.deep.equal({ total: 1, works: [{ kind: 'gallery', workKey: 'https://bilibili.com/video/BV17x411w7KC', ids: videos.map((record) => record.id).sort() }] });
      await warnOfSharedWorks(upgraded, logger);
      expect(logged).to.have.length(1);
      expect(logged[0]).to.include({ level: 'warn', works: 1 });
      expect(logged[0]?.msg).to.include('more than one record of one kind').and.include('npm run sources -- works');
    } finally {
      await upgraded.close();
    }
    const next = await openBackend({ databaseFile: file }, { migrate: true });
    try {
      expect(next.schemaMigrated).to.equal(undefined);
      expect(next.workKeysRecomputed, 'nothing computed again').to.equal(undefined);
      await warnOfSharedWorks(next, logger);
      expect(logged, 'warned once').to.have.length(1);
    } finally {
      await next.close();
    }
  });

  it('mends at the next start the work keys a process of an earlier version wrote after the upgrade', async () => {
    const file = join(dataDir, 'archive.sqlite');
    const db = openDatabase(file);
    const written = makeRecord({ sourceUrl: 'https://reddit.com/r/aiArt/comments/zzz999/my_slug' });
    try {
      migrateSchema(db);
      // What the earlier version's publisher, still running, writes: its key by its own rules (the URL).
      db.prepare('INSERT INTO records (id, kind, source, format, date, source_url, model, work_key, seq, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(written.id, written.kind, written.source, written.format, written.date, written.sourceUrl, written.model, written.sourceUrl, 1, JSON.stringify(written));
      db.prepare("INSERT INTO record_fates (id, moved_to, reason, at, source_url, title, work_key) VALUES ('video-o3-taken', NULL, 'a takedown', '2026-11-27T00:00:00Z', 'https://youtube.com/shorts/zzTaken', '{}', 'https://youtube.com/shorts/zzTaken')").run();
    } finally {
      db.close();
    }
    const backend = await openBackend({ databaseFile: file }, { migrate: true });
    try {
      expect((await backend.store.findByWorkKey('https://reddit.com/comments/zzz999')).map((record) => record.id)).to.deep.equal([written.id]);
      // Written without a model key, which it gets too: the timeline rule finds it under its label in any case.
      expect((await backend.store.findByModel(written.model.toUpperCase())).map((record) => record.id)).to.deep.equal([written.id]);
      expect((await backend.store.findWithdrawals('https://youtube.com/watch?v=zzTaken')).map((withdrawal) => withdrawal.id)).to.deep.equal(['video-o3-taken']);
    } finally {
      await backend.close();
    }
  });

  it('warns at the start whose mend made records one work, as after the upgrade that computed the keys again', async () => {
    const file = join(dataDir, 'archive.sqlite');
    const logged: { level: string; msg: string; works?: number }[] = [];
    const logger = createLogger('info', (line) => logged.push(JSON.parse(line) as { level: string; msg: string; works?: number }));
    // After the upgrade, a process of the earlier version still running published the av address, keyed by its own rules (the URL);
    // the new version, whose duplicate check did not find it under the BV key, published the BV form as a second record.
    const old = makeRecord({ sourceUrl: 'https://bilibili.com/video/av170002' });
    const newer = makeRecord({ sourceUrl: `https://bilibili.com/video/${bvidOfAid(170002n)}` });
    const db = openDatabase(file);
    try {
      migrateSchema(db);
      new SqliteRecordStore(db, new SqliteSearchIndex(db)).putRecordsNow([newer]);
      db.prepare('INSERT INTO records (id, kind, source, format, date, source_url, model, work_key, seq, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, (SELECT max(seq) + 1 FROM records), ?)').run(old.id, old.kind, old.source, old.format, old.date, old.sourceUrl, old.model, old.sourceUrl, JSON.stringify(old));
    } finally {
      db.close();
    }
    const restarted = await openBackend({ databaseFile: file }, { migrate: true });
    try {
      expect(restarted.schemaMigrated, 'no migration ran').to.equal(undefined);
      expect(restarted.workKeysRecomputed).to.equal(true);
      expect((await restarted.store.sharedWorks(10)).total).to.equal(1);
      await warnOfSharedWorks(restarted, logger);
      expect(logged).to.have.length(1);
      expect(logged[0]).to.include({ level: 'warn', works: 1 });
      expect(logged[0]?.msg).to.include('more than one record of one kind').and.include('a process of an earlier version').and.include('npm run sources -- works');
    } finally {
      await restarted.close();
    }
    // The next start mends nothing, and says nothing.
    const next = await openBackend({ databaseFile: file }, { migrate: true });
    try {
      expect(next.workKeysRecomputed).to.equal(undefined);
    } finally {
      await next.close();
    }
  });

  it('applies a migration appended to the list once, to existing databases too', () => {
    const file = join(dataDir, 'archive.sqlite');
    copyFileSync(WRITTEN_2026_11_23, file);
    const appended: Migration = { area: 'store', version: MIGRATIONS.filter((m) => m.area === 'store').length + 1, description: 'a test column', sql: 'ALTER TABLE submissions ADD COLUMN test_note TEXT' };
    const db = openDatabase(file);
    try {
      migrateSchema(db, [...MIGRATIONS, appended]);
      migrateSchema(db, [...MIGRATIONS, appended]);
      expect(db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('submissions') WHERE name = 'test_note'").all()).to.have.length(1);
      expect(ledgerOf(db).filter((row) => row.area === 'store').at(-1)).to.deep.equal({ area: 'store', version: appended.version });
    } finally {
      db.close();
    }
  });

  it('re-indexes in search v7 both the records of the store and those given to the index alone', async () => {
    const file = join(dataDir, 'archive.sqlite');
    const db = openDatabase(file);
    try {
      migrateSchema(db);
      const stored = makeRecord({ title: { zh: '旋转的灯塔', en: 'Stored' } });
      const given = makeRecord({ title: { zh: '旋转的灯笼', en: 'Given' } });
      await new SqliteRecordStore(db, new SqliteSearchIndex(db, 'never')).putRecords([stored]);
      await new SqliteSearchIndex(db, 'never').upsert([given]);
      // As a database at search v6 meets this code: the table is made again from what is kept.
      db.prepare("DELETE FROM schema_migrations WHERE component = 'search' AND version = 7").run();
      migrateSchema(db);
      const search = new SqliteSearchIndex(db, 'never');
      const ask = (text: string) => search.search({ lang: 'zh', text, filters: {}, order: 'newest', offset: 0, limit: 10 });
      expect((await ask('旋转的')).ids).to.have.members([stored.id, given.id]);
      expect((await ask('的灯笼')).ids).to.deep.equal([given.id]);
      expect((await ask('转的灯塔')).ids).to.deep.equal([stored.id]);
    } finally {
      db.close();
    }
  });

  it('refuses a database whose schema is newer than the code, and changes nothing', () => {
    const db = openDatabase(join(dataDir, 'archive.sqlite'));
    try {
      const newer: Migration = { area: 'sources', version: 1, description: 'a later table', sql: 'CREATE TABLE later (id TEXT)' };
      migrateSchema(db, [...MIGRATIONS, newer]);
      const before = schemaOf(db);
      expect(() => migrateSchema(db)).to.throw(SchemaTooNewError, /sources v1/);
      expect(schemaOf(db)).to.deep.equal(before);
    } finally {
      db.close();
    }
  });
});
