/**
 * The embedded database's schema, all of it: records and the change feed, catalog metadata and
 * follower checkpoints, submissions, tokens, idempotency keys, the search index and its change
 * log. Tables are created and changed here and nowhere else; the adapters only read and write
 * them.
 *
 * To change the schema, append ONE entry to MIGRATIONS below: the area it belongs to (an existing
 * one, or a new name for new tables) and that area's next version. Never edit, remove or reorder
 * an entry that has shipped: every database records the (area, version) pairs it has applied in
 * `schema_migrations`, and applies the ones it lacks, in this list's order, when a process that
 * owns the schema opens it (see `migrateSchema`).
 */
import { LANGS } from '../../domain/record.ts';
import { facetValueKey } from '../../domain/search-query.ts';
import { ADDED_SOURCE_HOSTS, BUILT_IN_SOURCES, currentSourceRule, REPLACED_SOURCE_RULES, workKey } from '../../domain/sources.ts';
import type { Lang } from '../../domain/record.ts';
import type { SqliteDatabase } from './database.ts';
import { registerSearchFunctions } from '../../search/sqlite/index-row.ts';

/** One schema step; applied once, inside the transaction that applies the others. */
export interface Migration {
  /** The part of the schema it belongs to; versions count up from 1 within an area. */
  area: string;
  version: number;
  description: string;
  sql: string;
  /**
   * Set on a step that computes every record's work key (again, or the first time) by rules that
   * may join records stored apart: records published under two forms of one address can then
   * share a key and kind, which the start that applied it counts (RecordStore.sharedWorks).
   * Not part of what a database records, so it may be set on an entry that has shipped.
   */
  recomputesWorkKeys?: true;
}

/** A step's name, as the start's log gives it: `store v9`. */
export function migrationName(migration: Migration): string {
  return `${migration.area} v${migration.version}`;
}

/** A text as an SQL string literal. */
function sqlText(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** The FTS5 table of one language in search v1 to v4 (its `fts5vocab` twin is `${table}_vocab`), kept for those migrations. */
function searchTable(lang: Lang): string {
  return `search_${lang}`;
}

/** The columns of the per-language search tables of search v4, kept as they shipped (see languageColumnValues in search/sqlite/index-row.ts). */
const SEARCH_COLUMNS_V4 = ['title', 'notes', 'model', 'author', 'prompt', 'category', 'other', 'facets'] as const;

/**
 * The FTS5 table of the search index (search v5): one row per record with the texts of both
 * languages, so each text is indexed once and a search in either language reads the same rows
 * (its `fts5vocab` twin is `search_text_vocab`). Since search v6 it holds no copy of the texts
 * (contentless): a row's texts are made again from its record (`records.doc`) when needed.
 */
export const SEARCH_TABLE = 'search_text';

/** The FTS5 columns of SEARCH_TABLE, in order: titles and notes in both languages, the shared texts, the facet tokens (see search/sqlite/index-row.ts). */
export const SEARCH_COLUMNS = ['title_zh', 'title_en', 'notes_zh', 'notes_en', 'model', 'author', 'prompt', 'category', 'facets'] as const;

/** The columns of the first search tables (search v1), kept as they shipped. */
const SEARCH_COLUMNS_V1 = ['title', 'notes', 'model', 'author', 'prompt', 'category', 'facets'] as const;

/**
 * SQL that gives each row of `table` whose stored work key is not the one the rules of this
 * version compute (archive_work_key) that key; `since` narrows it to the rows written after a mark.
 * Store v8 and v11, record-fates v4 and v5, and the mend of keys an earlier version wrote at each start.
 */
function recomputeWorkKeys(table: 'records' | 'record_fates', since?: 'seq' | 'rowid'): string {
  return `UPDATE ${table} SET work_key = archive_work_key(source_url) WHERE ${since ? `${since} > ? AND ` : ''}work_key IS NOT archive_work_key(source_url)`;
}

/** The facet values kept beside each sort key (search v3), for facet counts; see keyColumns in search/sqlite/index-row.ts. */
export const SEARCH_KEY_COLUMNS = ['kind', 'format', 'source', 'year', 'model', 'model_key'] as const;

function createSearchTables(columns: readonly string[]): string {
  return LANGS.map(
    (lang) => `
        CREATE VIRTUAL TABLE ${searchTable(lang)} USING fts5(${columns.join(', ')}, tokenize = "unicode61 remove_diacritics 2");
        CREATE VIRTUAL TABLE ${searchTable(lang)}_vocab USING fts5vocab(${searchTable(lang)}, row);`,
  ).join('\n');
}

/** Where a row of the search table is made from in search v5 and v6: the records alone. */
const RECORDS_OF_KEYS = `SELECT k.sort_key, r.doc FROM search_keys k JOIN records r ON r.id = k.id`;

/**
 * SQL for the JSON of the record a row of the search table is made from, by the id `id` names (a
 * parameter or a column): the copy the index kept when it was given the record alone (see
 * SearchIndexWriter.upsert in search/sqlite/index-writer.ts), else the store's record. NULL when
 * there is neither. Used by the index writer, the search caches and the migrations that re-index.
 */
export function docOfIdSql(id: string): string {
  return `SELECT coalesce((SELECT doc FROM search_docs WHERE id = ${id}), (SELECT doc FROM records WHERE id = ${id}))`;
}

/** Where it is made from since search v6: the record's JSON by docOfIdSql, for every key that has one. */
const DOCS_OF_KEYS = `SELECT sort_key, doc FROM (SELECT k.sort_key, (${docOfIdSql('k.id')}) AS doc FROM search_keys k) WHERE doc IS NOT NULL`;

/**
 * Creates SEARCH_TABLE (FTS5 `options` after its tokenizer) and its vocabulary, fills it from
 * `docs` (sort_key, doc), and tells every process's caches that anything may have changed
 * (search v5, v6 and v7).
 */
function createAndFillSearchTable(options: string, docs = RECORDS_OF_KEYS): string {
  return `CREATE VIRTUAL TABLE ${SEARCH_TABLE} USING fts5(${SEARCH_COLUMNS.join(', ')}, tokenize = "unicode61 remove_diacritics 2"${options});
      CREATE VIRTUAL TABLE ${SEARCH_TABLE}_vocab USING fts5vocab(${SEARCH_TABLE}, row);
      INSERT INTO ${SEARCH_TABLE} (rowid, ${SEARCH_COLUMNS.join(', ')})
        SELECT sort_key, ${SEARCH_COLUMNS.map((_, i) => `archive_search_text(doc, ${i})`).join(', ')}
        FROM (${docs})
        ORDER BY sort_key;
      INSERT INTO search_changes (sort_key) VALUES (NULL);`;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    area: 'store',
    version: 1,
    description: 'records and catalog metadata',
    sql: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE records (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        source TEXT NOT NULL,
        format TEXT NOT NULL,
        date TEXT NOT NULL,
        source_url TEXT NOT NULL,
        seq INTEGER NOT NULL,
        doc TEXT NOT NULL,
        UNIQUE (source_url, kind)
      );
      CREATE UNIQUE INDEX records_seq ON records (seq);
      INSERT INTO meta (key, value) VALUES ('change_number', '0');
    `,
  },
  {
    area: 'store',
    version: 2,
    description: 'model column, tokens, submissions queue, idempotency keys',
    sql: `
      ALTER TABLE records ADD COLUMN model TEXT;
      UPDATE records SET model = json_extract(doc, '$.model');
      CREATE INDEX records_model_date ON records (model, date, id);
      CREATE TABLE tokens (
        name TEXT PRIMARY KEY,
        secret_sha256 TEXT NOT NULL UNIQUE,
        scopes TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      );
      CREATE TABLE submissions (
        id TEXT PRIMARY KEY,
        token_name TEXT NOT NULL,
        status TEXT NOT NULL,
        body TEXT NOT NULL,
        submitted_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        due_at INTEGER NOT NULL,
        lease_owner TEXT,
        lease_until INTEGER,
        checks TEXT NOT NULL DEFAULT '[]',
        record_ids TEXT NOT NULL DEFAULT '[]',
        duplicate_of TEXT,
        reason TEXT
      );
      CREATE INDEX submissions_due ON submissions (status, due_at, id);
      CREATE INDEX submissions_lease ON submissions (status, lease_until);
      CREATE TABLE idempotency_keys (
        token_name TEXT NOT NULL,
        key TEXT NOT NULL,
        request_sha256 TEXT NOT NULL,
        status INTEGER NOT NULL,
        body TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (token_name, key)
      );
    `,
  },
  {
    area: 'store',
    version: 3,
    description: 'removals in the change feed',
    sql: `
      CREATE TABLE removals (seq INTEGER PRIMARY KEY, id TEXT NOT NULL);
    `,
  },
  {
    area: 'store',
    version: 4,
    description: 'submissions per token and day, for the daily quota',
    sql: `
      CREATE INDEX submissions_token_day ON submissions (token_name, submitted_at);
    `,
  },
  {
    area: 'search',
    version: 1,
    description: 'sort keys and one FTS5 table per language',
    sql: `
      CREATE TABLE search_keys (sort_key INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, day INTEGER NOT NULL);
      CREATE INDEX search_keys_day_id ON search_keys (day, id);
      ${createSearchTables(SEARCH_COLUMNS_V1)}
    `,
  },
  {
    area: 'search',
    version: 2,
    description: 'a log of changed sort keys, so processes keep their row sets current instead of dropping them',
    sql: `CREATE TABLE search_changes (seq INTEGER PRIMARY KEY, sort_key INTEGER);`,
  },
  {
    area: 'store',
    version: 5,
    description: 'a random token per claim, named by every update of the claim, so a lapsed claim cannot touch the next one',
    sql: `ALTER TABLE submissions ADD COLUMN lease_token TEXT;`,
  },
  {
    area: 'search',
    version: 3,
    description: 'the change number of the version each record was indexed at, so an index that follows a store can be compared with it',
    sql: `
      ALTER TABLE search_keys ADD COLUMN seq INTEGER;
      UPDATE search_keys SET seq = (SELECT seq FROM records WHERE records.id = search_keys.id);
    `,
  },
  {
    area: 'search',
    version: 4,
    description: "the other language's text in each search table, model, author and compilation-date facet tokens, facet values beside the sort keys; every record re-indexed",
    sql: `
      ${SEARCH_KEY_COLUMNS.map((column) => `ALTER TABLE search_keys ADD COLUMN ${column} TEXT NOT NULL DEFAULT '';`).join('\n      ')}
      UPDATE search_keys SET (${SEARCH_KEY_COLUMNS.join(', ')}) = (
        SELECT ${SEARCH_KEY_COLUMNS.map((_, i) => `archive_search_key(r.doc, ${i})`).join(', ')} FROM records r WHERE r.id = search_keys.id
      ) WHERE id IN (SELECT id FROM records);
      CREATE INDEX search_keys_model ON search_keys (model_key, sort_key);
      ${LANGS.map((lang) => `DROP TABLE ${searchTable(lang)}_vocab; DROP TABLE ${searchTable(lang)};`).join('\n      ')}
      ${createSearchTables(SEARCH_COLUMNS_V4)}
      ${LANGS.map(
        (lang) => `
        INSERT INTO ${searchTable(lang)} (rowid, ${SEARCH_COLUMNS_V4.join(', ')})
          SELECT k.sort_key, ${SEARCH_COLUMNS_V4.map((_, i) => `archive_search_column(r.doc, '${lang}', ${i})`).join(', ')}
          FROM search_keys k JOIN records r ON r.id = k.id
          ORDER BY k.sort_key;`,
      ).join('\n')}
      INSERT INTO search_changes (sort_key) VALUES (NULL);
    `,
  },
  {
    area: 'record-fates',
    version: 1,
    description: 'what became of published ids that are no longer records: moved (301) or withdrawn (410)',
    sql: `
      CREATE TABLE record_fates (
        id TEXT PRIMARY KEY,
        moved_to TEXT,
        reason TEXT NOT NULL,
        at TEXT NOT NULL,
        source_url TEXT NOT NULL,
        title TEXT NOT NULL
      );
    `,
  },
  {
    area: 'ingest',
    version: 1,
    description: 'review decisions, batches, listing by token and status, idempotency keys that keep ids instead of answers',
    sql: `
      ALTER TABLE submissions ADD COLUMN reviews TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE submissions ADD COLUMN batch_id TEXT;
      CREATE INDEX submissions_token_listing ON submissions (token_name, submitted_at DESC, id DESC);
      CREATE INDEX submissions_status_listing ON submissions (status, submitted_at DESC, id DESC);
      CREATE TABLE batches (
        id TEXT PRIMARY KEY,
        token_name TEXT NOT NULL,
        submitted_at TEXT NOT NULL,
        items TEXT NOT NULL,
        refused TEXT NOT NULL
      );
      CREATE TABLE idempotency_requests (
        token_name TEXT NOT NULL,
        key TEXT NOT NULL,
        request_sha256 TEXT NOT NULL,
        submission_ids TEXT NOT NULL,
        batch_id TEXT,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (token_name, key)
      );
      INSERT INTO idempotency_requests (token_name, key, request_sha256, submission_ids, batch_id, created_at)
        SELECT token_name, key, request_sha256,
          CASE WHEN json_type(body, '$.items') = 'array'
            THEN (SELECT json_group_array(json_extract(item.value, '$.submissionId')) FROM json_each(body, '$.items') AS item WHERE json_extract(item.value, '$.submissionId') IS NOT NULL)
            ELSE json_array(json_extract(body, '$.submissionId')) END,
          NULL, created_at
        FROM idempotency_keys WHERE json_valid(body);
      DROP TABLE idempotency_keys;
    `,
  },
  {
    area: 'source-table',
    version: 1,
    description: 'the source table, starting with the built-in sources',
    sql: `
      CREATE TABLE sources (key TEXT PRIMARY KEY, definition TEXT NOT NULL);
      ${BUILT_IN_SOURCES.filter((source) => source.key !== 'web')
        .map((source) => `INSERT INTO sources (key, definition) VALUES (${sqlText(source.key)}, ${sqlText(JSON.stringify(source))});`)
        .join('\n      ')}
    `,
  },
  {
    area: 'ingest',
    version: 2,
    description: "every token's submissions newest first (a reviewer's list, the export's decisions) without sorting the table",
    sql: `CREATE INDEX submissions_listing ON submissions (submitted_at DESC, id DESC);`,
  },
  {
    area: 'search',
    version: 5,
    description: 'one search table with the texts of both languages instead of one per language holding both: each text indexed once; every record re-indexed',
    sql: `
      ${LANGS.map((lang) => `DROP TABLE ${searchTable(lang)}_vocab; DROP TABLE ${searchTable(lang)};`).join('\n      ')}
      ${createAndFillSearchTable('')}
    `,
  },
  {
    area: 'search',
    version: 6,
    description: "the search table keeps no copy of the texts (contentless, deletes allowed): what a row holds is made again from its record when needed (records.doc, or search_docs for records given to the index alone); every record re-indexed",
    sql: `
      CREATE TABLE search_docs (id TEXT PRIMARY KEY, doc TEXT NOT NULL);
      DROP TABLE ${SEARCH_TABLE}_vocab; DROP TABLE ${SEARCH_TABLE};
      ${createAndFillSearchTable(", content = '', contentless_delete = 1")}
    `,
  },
  {
    area: 'search',
    version: 7,
    description: "each CJK run of three or more characters also written as its trigrams, after its column's text: a Chinese substring of three or more characters is asked as a phrase of trigrams, which far fewer rows hold than its bigrams; every record re-indexed, then merged into one segment",
    sql: `
      DROP TABLE ${SEARCH_TABLE}_vocab; DROP TABLE ${SEARCH_TABLE};
      ${createAndFillSearchTable(", content = '', contentless_delete = 1", DOCS_OF_KEYS)}
      INSERT INTO ${SEARCH_TABLE} (${SEARCH_TABLE}) VALUES ('optimize');
    `,
  },
  {
    area: 'store',
    version: 6,
    description: "each record's work key (domain/sources.ts workKey: its source URL with the parts its host reads without regard to case folded, an x.com status by its id alone), for the duplicate check; filled for every record from its stored source URL",
    recomputesWorkKeys: true,
    sql: `
      ALTER TABLE records ADD COLUMN work_key TEXT;
      UPDATE records SET work_key = archive_work_key(source_url);
      CREATE INDEX records_work_key ON records (work_key);
    `,
  },
  {
    area: 'record-fates',
    version: 2,
    description: "each retired id's work key (domain/sources.ts workKey of its source URL), so the publisher finds a withdrawal of the work a new submission names; filled from the stored source URLs, indexed for withdrawals",
    sql: `
      ALTER TABLE record_fates ADD COLUMN work_key TEXT;
      UPDATE record_fates SET work_key = archive_work_key(source_url);
      CREATE INDEX record_fates_withdrawn_work_key ON record_fates (work_key) WHERE moved_to IS NULL;
    `,
  },
  {
    area: 'record-fates',
    version: 3,
    description: 'retired ids in the order of their retirement (at, then id), for the list of ids removed since a day that sync clients read (GET /api/v1/removals)',
    sql: `CREATE INDEX record_fates_at ON record_fates (at, id);`,
  },
  {
    area: 'search',
    version: 8,
    description: "a copy of the search table's vocabulary (each term and the rows holding it, as JSON arrays) with the search change-log position it was read at, so a process starting with nothing changed since reads it instead of fts5vocab's scan of the whole index (6 s at a million records); every write to the search tables, a rebuild's included, moves the position on and so leaves the copy unused",
    sql: `CREATE TABLE search_vocabulary (slot INTEGER PRIMARY KEY CHECK (slot = 1), at_change INTEGER NOT NULL, terms TEXT NOT NULL, rows TEXT NOT NULL);`,
  },
  {
    area: 'search',
    version: 9,
    description: "the row sets a process reads ahead at start (the terms held by 1/64 to 1/2 of the rows), each with the search change-log position it was read at, so the processes starting next, or beside it, read them back instead of from FTS5 (about 1,400 sets of 10-30 ms each at a million records); a set is a bitset's words or its members ascending, as little-endian 32-bit words",
    sql: `CREATE TABLE search_read_ahead (seq INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, at_change INTEGER NOT NULL, form TEXT NOT NULL CHECK (form IN ('bits', 'list')), count INTEGER NOT NULL, members BLOB NOT NULL);`,
  },
  {
    area: 'store',
    version: 7,
    description: "a random mark beside the change number (meta 'change_stamp', twelve hex digits), written anew with every change number, so that the number reached again in another history (a backup restored and written to, another archive) does not name the same state; entity tags of streamed bodies carry both",
    sql: `INSERT OR REPLACE INTO meta (key, value) VALUES ('change_stamp', lower(hex(randomblob(6))));`,
  },
  {
    area: 'store',
    version: 8,
    description: "each record's work key computed again by the rules of 2026-11-26 (domain/sources.ts WORK_IDENTITIES): a Reddit post, a YouTube video, a pen, a Hugging Face repository, a Bilibili video and a mobile Weibo post each by what names it whatever the address's form, and sharers' parameters dropped, so the duplicate check finds the work under any of its addresses",
    recomputesWorkKeys: true,
    sql: `${recomputeWorkKeys('records')};`,
  },
  {
    area: 'record-fates',
    version: 4,
    description: "each retired id's work key computed again by the rules of store v8, so a withdrawn work submitted again under another of its addresses is found",
    sql: `${recomputeWorkKeys('record_fates')};`,
  },
  {
    area: 'source-table',
    version: 2,
    description: "the handle and work rules of the built-in GitHub, Weibo and CodePen sources replaced by this version's where a stored definition still holds the rule an earlier version wrote (domain/sources.ts REPLACED_SOURCE_RULES); a rule a maintainer changed stays",
    sql: REPLACED_SOURCE_RULES.map(({ key, field, was }) => `UPDATE sources SET definition = json_set(definition, '$.${field}', ${sqlText(currentSourceRule(key, field))}) WHERE key = ${sqlText(key)} AND json_extract(definition, '$.${field}') = ${sqlText(was)};`).join('\n'),
  },
  {
    area: 'store',
    version: 9,
    description: "each record's model key (domain/search-query.ts facetValueKey of its model label: trimmed, NFKD, lower case), indexed, so the timeline rule groups a label's records as the model filter does: `deepseek-v3` with `DeepSeek-V3`",
    sql: `
      ALTER TABLE records ADD COLUMN model_key TEXT;
      UPDATE records SET model_key = archive_model_key(model);
      CREATE INDEX records_model_key ON records (model_key, date, id);
    `,
  },
  {
    area: 'store',
    version: 10,
    description: 'the index of records by model label as written dropped: the timeline rule reads them by model key (store v9), and nothing else read it, though every write kept it',
    sql: `DROP INDEX records_model_date;`,
  },
  {
    area: 'source-table',
    version: 3,
    description: "redd.it a host of the built-in Reddit source, and music.youtube.com, youtube-nocookie.com and hf.co aliases of YouTube's and Hugging Face's (domain/sources.ts ADDED_SOURCE_HOSTS), so their addresses are accepted and written as the platform's own; where the source is stored and no stored source holds the host already",
    sql: ADDED_SOURCE_HOSTS.map(({ key, host, alias }) => {
      const held = (field: string) => `EXISTS (SELECT 1 FROM sources AS holder, json_each(holder.definition, '$.${field}') AS entry WHERE entry.value = ${sqlText(host)})`;
      const added = alias
        ? `json_insert(CASE WHEN json_type(definition, '$.aliases') = 'array' THEN definition ELSE json_set(definition, '$.aliases', json('[]')) END, '$.hosts[#]', ${sqlText(host)}, '$.aliases[#]', ${sqlText(host)})`
        : `json_insert(definition, '$.hosts[#]', ${sqlText(host)})`;
      return `UPDATE sources SET definition = ${added} WHERE key = ${sqlText(key)} AND NOT ${held('hosts')} AND NOT ${held('mediaHosts')};`;
    }).join('\n'),
  },
  {
    area: 'store',
    version: 11,
    description: "each record's work key computed again by work key rules 3 (domain/sources.ts WORK_KEY_RULES_VERSION): an address on redd.it, music.youtube.com, youtube-nocookie.com, hf.co or another alias host, stored as written while the host was unknown, keyed as its platform's own address, a Bilibili video's av address as its BV id, and an embedded playlist (/embed/videoseries) as its playlist rather than one video of all of them",
    recomputesWorkKeys: true,
    sql: `${recomputeWorkKeys('records')};`,
  },
  {
    area: 'record-fates',
    version: 5,
    description: "each retired id's work key computed again by the rules of store v11, so a withdrawn work stored under a short or embedded host is found under its platform's address, and the other way round",
    sql: `${recomputeWorkKeys('record_fates')};`,
  },
  // Append new migrations here: { area, version: that area's next version, description, sql }.
];

/** What an opening that owns the schema did to it (migrateSchema). */
export interface SchemaUpgrade {
  /** The steps applied, in order. */
  applied: Migration[];
  /**
   * How many records' work keys were mended: written since the last start by a process of an
   * earlier version (mendDerivedKeys), so records of one work may now share a key and kind.
   */
  workKeysMended: number;
}

/** The schema is newer than this code: the database was written by a later version of the archive. */
export class SchemaTooNewError extends Error {}

/**
 * Creates or upgrades every table of the embedded database: applies, in one IMMEDIATE
 * transaction, each migration above this database has not recorded. Refuses a database that
 * records a migration this code does not know, rather than running old code on a newer schema.
 * Run by the processes that own the schema (the server's primary, the indexer, the scripts);
 * others open what exists. Returns the steps it applied, in order, for the start's log, and how
 * many work keys mendDerivedKeys changed.
 */
export function migrateSchema(db: SqliteDatabase, migrations: readonly Migration[] = MIGRATIONS): SchemaUpgrade {
  // Migrations that re-index records call these (search v3).
  registerSearchFunctions(db);
  // Store v6, v8 and v11 and record-fates v2, v4 and v5 fill the work keys with it.
  db.function('archive_work_key', { deterministic: true }, (sourceUrl: unknown) => workKey(String(sourceUrl)));
  // Store v9 fills the model keys with it.
  db.function('archive_model_key', { deterministic: true }, (model: unknown) => facetValueKey(String(model)));
  // The ledger's key column is called `component` in databases written before the areas got their name.
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (component TEXT NOT NULL, version INTEGER NOT NULL, description TEXT NOT NULL, applied_at TEXT NOT NULL, PRIMARY KEY (component, version))');
  const applied = db.prepare<[], { area: string; version: number }>('SELECT component AS area, max(version) AS version FROM schema_migrations GROUP BY component');
  const record = db.prepare('INSERT INTO schema_migrations (component, version, description, applied_at) VALUES (?, ?, ?, ?)');
  const appliedNow: Migration[] = [];
  let workKeysMended = 0;
  db.transaction(() => {
    const current = new Map(applied.all().map((row) => [row.area, row.version]));
    const newest = new Map<string, number>();
    for (const migration of migrations) newest.set(migration.area, Math.max(newest.get(migration.area) ?? 0, migration.version));
    const unknown = [...current].filter(([area, version]) => version > (newest.get(area) ?? 0));
    if (unknown.length > 0) {
      throw new SchemaTooNewError(`the database has schema ${unknown.map(([area, version]) => `${area} v${version}`).join(', ')}, newer than this version of the archive knows; run a newer version or restore a backup`);
    }
    const appliedAt = new Date().toISOString();
    for (const migration of migrations) {
      if (migration.version <= (current.get(migration.area) ?? 0)) continue;
      db.exec(migration.sql);
      record.run(migration.area, migration.version, migration.description, appliedAt);
      current.set(migration.area, migration.version);
      appliedNow.push(migration);
    }
    // The keys of store v8 and v9 and record-fates v4, once the tables hold them (a test's shorter list may stop before).
    if ((current.get('store') ?? 0) >= 9 && (current.get('record-fates') ?? 0) >= 4) workKeysMended = mendDerivedKeys(db);
  }).immediate();
  return { applied: appliedNow, workKeysMended };
}

/**
 * Gives the records and retired ids written since the last check the work keys of this version's
 * rules (domain/sources.ts workKey), and the records their model keys (store v9), where they hold
 * others. A process of an earlier version that was still running when a newer one upgraded the
 * database (a rolling upgrade, a server left up while a command of the new version ran) goes on
 * writing keys by its own rules, or none, which store v8 and v9 do not see; the next start of a
 * process that owns the schema mends them. Reads only what was
 * written since the mark (meta 'work_keys_checked': the highest record seq and retired id rowid
 * checked), set without reading anything the first time, in the transaction that ran store v8.
 * Returns how many records' work keys it changed: records that the keys now make one work (an old
 * av address beside its BV form published by the new version) are then told of at the start, as
 * after a migration that computes the keys again (Backend.workKeysRecomputed).
 */
function mendDerivedKeys(db: SqliteDatabase): number {
  const mark = db.prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'work_keys_checked'").get();
  const [records, fates] = mark ? (JSON.parse(mark.value) as [number, number]) : [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
  // The work keys, then the model keys: two passes over the records written since the mark, so the first counts the work keys changed.
  const mended = db.prepare(recomputeWorkKeys('records', 'seq')).run(records).changes;
  db.prepare('UPDATE records SET model_key = archive_model_key(model) WHERE seq > ? AND model_key IS NOT archive_model_key(model)').run(records);
  db.prepare(recomputeWorkKeys('record_fates', 'rowid')).run(fates);
  const highest = db.prepare<[], { records: number | null; fates: number | null }>('SELECT (SELECT max(seq) FROM records) AS records, (SELECT max(rowid) FROM record_fates) AS fates').get();
  db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('work_keys_checked', ?)").run(JSON.stringify([highest?.records ?? 0, highest?.fates ?? 0]));
  return mended;
}
