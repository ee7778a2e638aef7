/**
 * How a record becomes a Meilisearch document in one language.
 *
 * Meilisearch segments Chinese into words, so a substring that crosses a word boundary would not
 * match. Each text field therefore gets a companion field (`titleCjk` …) holding its CJK runs as
 * overlapping character bigrams, and `cjkChars` holds every CJK character once. The bigrams are
 * written as Latin-letter codes (`qx` + 4 letters per character), which no segmenter splits: a
 * query substring becomes a quoted phrase of consecutive codes, so any contiguous substring of two
 * or more characters matches and a non-contiguous one does not.
 *
 * Searchable fields group texts of equal weight and start with a null (see SEARCHABLE_GROUPS and
 * SearchableText).
 */
import type { IndexRecord } from '../../domain/ports.ts';
import type { CanonicalRecord, Format, Kind, Lang } from '../../domain/record.ts';
import { dayNumber, yearOf } from '../../domain/record.ts';
import { CJK_RUN, cjkBigrams, cjkRuns, normalizeText, wordTokens } from '../search-text.ts';

/**
 * The version of the mapping below, from a record to its documents: raise it with every change to
 * what a document holds (a field, a text's normalization, the CJK codes). The index sync stores
 * the version the documents were written with beside its position (RecordStore.readMappingVersion)
 * and, started with a higher one here, writes every record again in the background
 * (search-sync.ts). It starts at 1, the first version recorded: a store written before holds none,
 * which counts as older, so documents of any earlier mapping (the last, of 2026-11-26: symbols
 * written as spaces) are rewritten once by the first start of this version.
 */
export const DOCUMENT_MAPPING_VERSION = 1;

/** A record's texts that are searched, each in one of the fields below. */
export const TEXT_FIELDS = ['title', 'model', 'author', 'promptCategory', 'notes', 'prompt', 'titleOther', 'notesOther'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

/**
 * The searchable fields, in ranking order, and the texts each holds: the embedded engine's weight
 * classes (title 10; model, author and prompt category 5; notes, prompt and the other language's
 * title and notes 1). Meilisearch's `attributeRank` tells fields apart but not the texts inside one,
 * so texts of equal weight share a field, as elements of an array: a phrase never spans two
 * elements (their words are numbered 8 apart).
 */
export const SEARCHABLE_GROUPS = {
  title: ['title'],
  meta: ['model', 'author', 'promptCategory'],
  text: ['notes', 'prompt', 'titleOther', 'notesOther'],
} as const satisfies Record<string, readonly TextField[]>;
export type SearchableGroup = keyof typeof SEARCHABLE_GROUPS;
export const SEARCHABLE_GROUP_NAMES = Object.keys(SEARCHABLE_GROUPS) as SearchableGroup[];

/** The companion field holding a group's CJK bigram codes. */
export function cjkField(group: SearchableGroup): `${SearchableGroup}Cjk` {
  return `${group}Cjk`;
}

export const CJK_CHARS_FIELD = 'cjkChars';

/**
 * A searchable field as stored: its texts after a null. Meilisearch numbers the words of an
 * array's elements apart (each element after the first starts 8 positions further), so no text
 * begins at position 0. That turns off the first half of the `exactness` ranking rule (a field
 * equal to the query, then a field starting with it, first), a signal the embedded engine does
 * not have, and keeps its second half: records holding the words as written before those
 * matching only a prefix.
 */
export type SearchableText = [null, ...string[]];

/** One record in one language, as the index stores it. */
export type MeiliDocument = {
  id: string;
  kind: Kind;
  source: string;
  format: Format;
  year: string;
  /** The model label and author as given: filtered and counted as facets, searched in `meta`. */
  model: string;
  author: string;
  /** YYYY-MM-DD; sorts as text. */
  date: string;
  /** The date as days since 1970-01-01, for range filters (from, to, cursors). */
  day: number;
  /** The compilation date as days since 1970-01-01 (the since filter). */
  updatedDay: number;
  cjkChars: SearchableText;
  /** The change number of the record version the document was made from (null: written without one). */
  seq: number | null;
} & Record<SearchableGroup | `${SearchableGroup}Cjk`, SearchableText>;

const CODE_PREFIX = 'qx';
const RUN_START_PREFIX = 'qy';
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
 * The code that opens a CJK run: its first character, written apart from that character's own
 * code. Meilisearch matches a phrase window by window (three consecutive words at their distances,
 * each window anywhere in the document), so a code standing for both a run's start and its end
 * would let a phrase join the windows of different runs.
 */
export function cjkRunStartCode(character: string): string {
  return RUN_START_PREFIX + characterCode(character);
}

/**
 * The codes of a text's CJK runs: each run's start code (cjkRunStartCode), its bigrams and its last
 * character (a run of one character: its start code and the character). Runs with only spaces and
 * punctuation between them follow each other as words, so a quoted phrase can step from one run's
 * last character to the next run's start (see tokensOf in search-text.ts and phraseCodes in
 * query.ts); runs with a word between them are separated by a full stop, which no phrase spans.
 */
export function cjkBigramText(text: string): string {
  const normalized = normalizeText(text);
  let codes = '';
  let previousEnd: number | undefined;
  for (const match of normalized.matchAll(CJK_RUN)) {
    if (previousEnd !== undefined) codes += wordTokens(normalized.slice(previousEnd, match.index)).length > 0 ? '. ' : ' ';
    const characters = [...match[0]];
    const first = characters[0] as string;
    const last = characters[characters.length - 1] as string;
    codes += [cjkRunStartCode(first), ...(characters.length > 1 ? cjkBigrams(match[0]) : []).map(cjkCode), cjkCode(last)].join(' ');
    previousEnd = match.index + match[0].length;
  }
  return codes;
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

/**
 * Symbols (Unicode's S categories: `< = > | ~ ^ $ ° → ©`, emoji …) as spaces. Meilisearch
 * separates words only at the characters of its own list, which holds most punctuation but not
 * these, so `<svg>`, `x=1|y=2` and `30°C→warm` were words of their own that `svg`, `y` or `warm`
 * never matched; the embedded engine (unicode61) and the query parser (search-text.ts) split at
 * every one of them. Only the indexed text changes: the record shown is the store's.
 */
const SYMBOL = /\p{S}/gu;

/** A text as Meilisearch indexes it: in NFKC, as queries are read (full-width letters as ASCII, ligatures as their letters), symbols as spaces. */
export function searchableText(text: string): string {
  return text.normalize('NFKC').replace(SYMBOL, ' ');
}

/** The document a record becomes in the index of one language. */
export function toMeiliDocument(record: IndexRecord, lang: Lang): MeiliDocument {
  const texts = (group: SearchableGroup): string[] => SEARCHABLE_GROUPS[group].map((field) => fieldText(record, lang, field));
  const groups = Object.fromEntries(
    SEARCHABLE_GROUP_NAMES.flatMap((group): [string, SearchableText][] => [
      [group, [null, ...texts(group).map(searchableText)]],
      [cjkField(group), [null, ...texts(group).map(cjkBigramText)]],
    ]),
  ) as Record<SearchableGroup | `${SearchableGroup}Cjk`, SearchableText>;
  return {
    id: record.id,
    kind: record.kind,
    source: record.source,
    format: record.format,
    year: yearOf(record.date),
    model: record.model,
    author: record.author,
    date: record.date,
    day: dayNumber(record.date),
    updatedDay: dayNumber(record.updated),
    ...groups,
    cjkChars: [null, cjkCharacterText(TEXT_FIELDS.map((field) => fieldText(record, lang, field)))],
    seq: record.seq ?? null,
  };
}
