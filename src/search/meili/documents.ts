/**
 * How a record becomes a Meilisearch document in one language.
 *
 * Meilisearch segments Chinese into words, so a substring that crosses a word boundary would not
 * match. Each text field therefore gets a companion field (`titleCjk` …) holding its CJK runs as
 * overlapping character bigrams, and `cjkChars` holds every CJK character once. The bigrams are
 * written as Latin-letter codes (`qx` + 4 letters per character), which no segmenter splits: a
 * query substring becomes a quoted phrase of consecutive codes, so any contiguous substring of two
 * or more characters matches and a non-contiguous one does not.
 */
import type { IndexRecord } from '../../domain/ports.ts';
import type { CanonicalRecord, Format, Kind, Lang } from '../../domain/record.ts';
import { dayNumber, yearOf } from '../../domain/record.ts';
import { cjkBigrams, cjkRuns } from '../search-text.ts';

/**
 * The text fields searched, in ranking order (mirrors the embedded engine's weights); the title
 * and notes of the other language come last, so a search finds a record by either language's text.
 */
export const TEXT_FIELDS = ['title', 'model', 'author', 'promptCategory', 'notes', 'prompt', 'titleOther', 'notesOther'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

/** The companion field holding a text field's CJK bigram codes. */
export function cjkField(field: TextField): `${TextField}Cjk` {
  return `${field}Cjk`;
}

export const CJK_CHARS_FIELD = 'cjkChars';

/** One record in one language, as the index stores it. */
export type MeiliDocument = {
  id: string;
  kind: Kind;
  source: string;
  format: Format;
  year: string;
  /** YYYY-MM-DD; sorts as text. */
  date: string;
  /** The date as days since 1970-01-01, for range filters (from, to, cursors). */
  day: number;
  /** The compilation date as days since 1970-01-01 (the since filter). */
  updatedDay: number;
  cjkChars: string;
  /** The change number of the record version the document was made from (null: written without one). */
  seq: number | null;
} & Record<TextField, string> &
  Record<`${TextField}Cjk`, string>;

const CODE_PREFIX = 'qx';
const CODE_LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** 26⁴ = 456,976 code points: every CJK block, including the supplementary ideograph planes. */
const CODE_WIDTH = 4;

function characterCode(character: string): string {
  let value = character.codePointAt(0) ?? 0;
  let code = '';
  for (let i = 0; i < CODE_WIDTH; i += 1) {
    code = (CODE_LETTERS[value % 26] ?? 'a') + code;
    value = Math.floor(value / 26);
  }
  return code;
}

/** The searchable code of one CJK character or of a bigram of two. */
export function cjkCode(characters: string): string {
  return CODE_PREFIX + [...characters].map(characterCode).join('');
}

/**
 * The bigram codes of a text's CJK runs: codes of one run are consecutive words, runs are
 * separated by a full stop so no phrase can span two of them. A run of one character has no
 * bigram; it is found through `cjkChars`.
 */
export function cjkBigramText(text: string): string {
  return cjkRuns(text)
    .filter((run) => [...run].length > 1)
    .map((run) => cjkBigrams(run).map(cjkCode).join(' '))
    .join('. ');
}

/** The codes of every distinct CJK character of some texts. */
export function cjkCharacterText(texts: readonly string[]): string {
  const characters = new Set<string>();
  for (const text of texts) for (const run of cjkRuns(text)) for (const character of run) characters.add(character);
  return [...characters].map(cjkCode).join(' ');
}

function fieldText(record: CanonicalRecord, lang: Lang, field: TextField): string {
  const other: Lang = lang === 'zh' ? 'en' : 'zh';
  switch (field) {
    case 'title':
      return record.title[lang];
    case 'notes':
      return record.notes[lang];
    case 'titleOther':
      return record.title[other];
    case 'notesOther':
      return record.notes[other];
    case 'promptCategory':
      return record.promptCategory.replace(/[-_]/g, ' ');
    case 'prompt':
      return record.prompt ?? '';
    case 'model':
      return record.model;
    case 'author':
      return record.author;
  }
}

/** The document a record becomes in the index of one language. */
export function toMeiliDocument(record: IndexRecord, lang: Lang): MeiliDocument {
  const texts = Object.fromEntries(TEXT_FIELDS.map((field) => [field, fieldText(record, lang, field)])) as Record<TextField, string>;
  const companions = Object.fromEntries(TEXT_FIELDS.map((field) => [cjkField(field), cjkBigramText(texts[field])])) as Record<`${TextField}Cjk`, string>;
  return {
    id: record.id,
    kind: record.kind,
    source: record.source,
    format: record.format,
    year: yearOf(record.date),
    date: record.date,
    day: dayNumber(record.date),
    updatedDay: dayNumber(record.updated),
    ...texts,
    ...companions,
    cjkChars: cjkCharacterText(Object.values(texts)),
    seq: record.seq ?? null,
  };
}
