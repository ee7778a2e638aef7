/**
 * What the search tables hold for a record: its FTS5 columns in each language and the facet
 * values kept beside its sort key (for facet counts). Also offered to SQL as functions, so a
 * schema migration can re-index the records a database already holds.
 */
import type { CanonicalRecord, Lang } from '../../domain/record.ts';
import { isLang, yearOf } from '../../domain/record.ts';
import { facetValueKey } from '../../domain/search-query.ts';
import type { SqliteDatabase } from '../../store/sqlite/database.ts';
import { facetsText } from './facets.ts';
import { indexText } from './text.ts';

/**
 * The values of a record's row in the search table, in SEARCH_COLUMNS order (title and notes in
 * both languages, model, author, prompt, category, facets). A search in one language weighs its
 * own title and reads every text, so it finds text written in the other.
 */
export function textColumnValues(record: CanonicalRecord): string[] {
  return [
    indexText(record.title.zh),
    indexText(record.title.en),
    indexText(record.notes.zh),
    indexText(record.notes.en),
    indexText(record.model),
    indexText(record.author),
    indexText(record.prompt ?? ''),
    indexText(record.promptCategory.replace(/[-_]/g, ' ')),
    facetsText(record),
  ];
}

/**
 * The values of a record's FTS5 columns in one language as search v4 wrote them (title, notes,
 * model, author, prompt, category, other, facets), for that migration alone.
 */
function languageColumnValues(record: CanonicalRecord, lang: Lang): string[] {
  const other: Lang = lang === 'zh' ? 'en' : 'zh';
  return [
    indexText(record.title[lang]),
    indexText(record.notes[lang]),
    indexText(record.model),
    indexText(record.author),
    indexText(record.prompt ?? ''),
    indexText(record.promptCategory.replace(/[-_]/g, ' ')),
    indexText(`${record.title[other]}\n${record.notes[other]}`),
    facetsText(record),
  ];
}

/** The search table's column values of a record given as its JSON (`records.doc`). */
export function textColumnsOfDoc(doc: string): string[] {
  return textColumnValues(JSON.parse(doc) as CanonicalRecord);
}

/** The facet values of a record kept in `search_keys`, in its column order (kind, format, source, year, model, model_key). */
export function keyColumns(record: CanonicalRecord): KeyColumnValues {
  return [record.kind, record.format, record.source, yearOf(record.date), record.model, facetValueKey(record.model)];
}

/** The values of a record's `search_keys` facet columns (see keyColumns). */
export type KeyColumnValues = [string, string, string, string, string, string];

/**
 * Everything the search tables receive for one version of a record, in plain strings: what the
 * index writer needs, made apart from the write (a catalog import makes these in a worker thread
 * while the writer writes the previous batch).
 */
export interface IndexRow {
  id: string;
  date: string;
  /** The change number of this version, when the writer knows it. */
  seq?: number;
  text: string[];
  keys: KeyColumnValues;
}

/** A record's row in the search tables. */
export function indexRow(record: CanonicalRecord, seq?: number): IndexRow {
  return { id: record.id, date: record.date, ...(seq === undefined ? {} : { seq }), text: textColumnValues(record), keys: keyColumns(record) };
}

/**
 * SQL functions over a record's JSON (`records.doc`), for the migrations that re-index:
 * `archive_search_text(doc, i)`, the i-th column of its row in the search table;
 * `archive_search_key(doc, i)`, the i-th `search_keys` facet value; and, for search v4,
 * `archive_search_column(doc, lang, i)`. A statement asks for every column of one record in a
 * row, so the last record read is kept.
 */
export function registerSearchFunctions(db: SqliteDatabase): void {
  let last: { doc: string; record: CanonicalRecord; columns: Partial<Record<Lang, string[]>>; text?: string[]; keys?: string[] } | undefined;
  const read = (doc: unknown): NonNullable<typeof last> => {
    if (typeof doc !== 'string') throw new TypeError('a record document is a JSON string');
    if (last?.doc !== doc) last = { doc, record: JSON.parse(doc) as CanonicalRecord, columns: {} };
    return last;
  };
  db.function('archive_search_column', { deterministic: true }, (doc: unknown, lang: unknown, index: unknown) => {
    if (!isLang(lang) || typeof index !== 'number') throw new TypeError('archive_search_column(doc, lang, index) takes zh or en and a column number');
    const entry = read(doc);
    entry.columns[lang] ??= languageColumnValues(entry.record, lang);
    return entry.columns[lang][index] ?? null;
  });
  db.function('archive_search_text', { deterministic: true }, (doc: unknown, index: unknown) => {
    if (typeof index !== 'number') throw new TypeError('archive_search_text(doc, index) takes a column number');
    const entry = read(doc);
    entry.text ??= textColumnValues(entry.record);
    return entry.text[index] ?? null;
  });
  db.function('archive_search_key', { deterministic: true }, (doc: unknown, index: unknown) => {
    if (typeof index !== 'number') throw new TypeError('archive_search_key(doc, index) takes a column number');
    const entry = read(doc);
    entry.keys ??= keyColumns(entry.record);
    return entry.keys[index] ?? null;
  });
}
