import { citationText } from './citation.ts';
import { yearOf } from './record.ts';
import type { CanonicalRecord, Format, Kind, Lang, MediaStatus, WorkDescription } from './record.ts';

/** One preview image as it leaves the service. */
export interface LocalizedMedia {
  url: string;
  width: number;
  height: number;
}

/** A record in one language: what the API, MCP tools, exports and pages all present. */
export interface LocalizedRecord {
  id: string;
  kind: Kind;
  source: string;
  sourceUrl: string;
  url: string;
  markdown: string;
  title: string;
  notes: string;
  model: string;
  author: string;
  date: string;
  year: string;
  format: Format;
  promptCategory: string;
  prompt?: string;
  mediaStatus: MediaStatus;
  media: LocalizedMedia[];
  thumbnail: string | null;
  citation: string;
  updated: string;
}

/**
 * Control, zero-width and bidirectional-override characters, and the fillers and joiners that draw
 * nothing (soft hyphen, combining grapheme joiner, the Hangul fillers, the Mongolian vowel
 * separator), which never leave the service in record text: the inside of a regular-expression character class, its escapes written out, so that the
 * pattern of a JSON Schema can be made of it too.
 */
const UNSAFE_CHARACTER_RANGES = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u00ad\\u034f\\u115f\\u1160\\u180e\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\u3164\\ufeff\\uffa0\\ufff9-\\ufffb';
/** The zero-width non-joiner and joiner, among the ranges above, which cleanText keeps where they join (JOINER). */
const JOINERS = '\\u200c\\u200d';
// eslint-disable-next-line no-misleading-character-class -- the combining grapheme joiner (U+034F) is listed to be matched on its own
const UNSAFE_CHARACTERS = new RegExp(`(?![${JOINERS}])[${UNSAFE_CHARACTER_RANGES}]`, 'g');

/**
 * What a joiner can join: an emoji or one of its modifiers (👩‍💻, 🏳️‍🌈), or a letter or mark of a
 * script that shapes its letters with them (Persian محمد‌رضا, the Indic scripts); not Latin or Han,
 * whose letters they never change.
 */
const JOINABLE = String.raw`(?:\p{Extended_Pictographic}|\p{Emoji_Modifier}|\uFE0F|\u20E3|(?![\p{Script=Latin}\p{Script=Han}])[\p{L}\p{M}])`;

/**
 * A run of joiners: its first kept when it stands between two characters it can join, else the
 * whole run removed (a joiner at a text's edge, beside white space, or inside a Latin word).
 */
const JOINER = new RegExp(`(?<=${JOINABLE})([${JOINERS}])[${JOINERS}]*(?=${JOINABLE})|[${JOINERS}]+`, 'gu');
const ANY_JOINER = new RegExp(`[${JOINERS}]`, 'g');
const HOLDS_JOINER = new RegExp(`[${JOINERS}]`);

/**
 * The pattern a text matches when it holds a visible character: one that is neither whitespace nor
 * removed by cleanText. A text without one is blank; the text fields of schemas/submission.schema.json
 * carry this pattern.
 */
export const VISIBLE_CHARACTER_PATTERN = `[^\\s${UNSAFE_CHARACTER_RANGES}]`;

/**
 * Record text with control and invisible characters removed (newlines and tabs kept), and as
 * Unicode: an unpaired UTF-16 surrogate (which JSON's `\ud800` escapes can carry) becomes U+FFFD,
 * so the JSON and CSV of a record agree and a page can put its text in an address. A zero-width
 * joiner or non-joiner stays where it joins (JOINER): until 2026-11-26 every one was removed, and
 * an author `Ana 👩‍💻 Pérez` was shown as `Ana 👩💻 Pérez`.
 */
export function cleanText(text: string): string {
  let cleaned = text.replace(UNSAFE_CHARACTERS, '');
  if (HOLDS_JOINER.test(cleaned)) cleaned = cleaned.replace(JOINER, (_run, kept: string | undefined) => kept ?? '');
  return cleaned.isWellFormed() ? cleaned : cleaned.toWellFormed();
}

/**
 * A model label as cleanText leaves it, without any joiner and without white space around it: a
 * label is compared, filtered and grouped into a timeline, and a joiner inside it would make a
 * second label that reads the same.
 */
export function cleanLabel(text: string): string {
  return cleanText(text).replace(ANY_JOINER, '').trim();
}

/** A line break, tab, or line or paragraph separator, with the white space around it. */
const LINE_BREAKS = /\s*[\t\n\v\f\r\u0085\u2028\u2029]\s*/gu;

/**
 * A text made to fit inside one line of a text answer: each line break, tab or separator (with the
 * white space around it) becomes one space, so a stored title can never start a line of its own.
 * cleanText keeps them, and the Markdown pages lay them out themselves.
 */
export function oneLine(text: string): string {
  return text.replace(LINE_BREAKS, ' ').trim();
}

/**
 * A work with its texts (model, author, title, notes, prompt) as cleanText leaves them, the model
 * label and the author without white space around them. Applied before a work is stored, so that
 * what is stored, filtered and faceted is what is shown (until 2026-11-26 the model was stored with
 * its spaces, and `"  gpt-4o "` started a timeline of its own beside `gpt-4o`).
 */
export function cleanWorkText<T extends WorkDescription>(work: T): T {
  return {
    ...work,
    model: cleanLabel(work.model),
    author: cleanText(work.author).trim(),
    title: { zh: cleanText(work.title.zh), en: cleanText(work.title.en) },
    notes: { zh: cleanText(work.notes.zh), en: cleanText(work.notes.en) },
    ...(work.prompt === undefined ? {} : { prompt: cleanText(work.prompt) }),
  };
}

/** A catalog record with its texts cleaned as cleanWorkText does, its promptCategory too. */
export function cleanRecordText(record: CanonicalRecord): CanonicalRecord {
  return { ...cleanWorkText(record), promptCategory: cleanText(record.promptCategory) };
}

/** The localized archive page of a record: zh at the root, en under /en. */
export function recordPageUrl(baseUrl: string, id: string, lang: Lang): string {
  return lang === 'zh' ? `${baseUrl}/specimens/${id}/` : `${baseUrl}/en/specimens/${id}/`;
}

/** The public URL of a file in the media folder. */
export function mediaUrl(baseUrl: string, path: string): string {
  return `${baseUrl}/media/${path}`;
}

/** Presents a canonical record in one language. The only way a record leaves the service. */
export function localizeRecord(record: CanonicalRecord, lang: Lang, baseUrl: string): LocalizedRecord {
  const url = recordPageUrl(baseUrl, record.id, lang);
  const title = cleanText(record.title[lang]);
  const author = cleanText(record.author);
  return {
    id: record.id,
    kind: record.kind,
    source: record.source,
    sourceUrl: record.sourceUrl,
    url,
    markdown: `${url}index.md`,
    title,
    notes: cleanText(record.notes[lang]),
    model: cleanText(record.model),
    author,
    date: record.date,
    year: yearOf(record.date),
    format: record.format,
    promptCategory: cleanText(record.promptCategory),
    ...(record.prompt === undefined ? {} : { prompt: cleanText(record.prompt) }),
    mediaStatus: record.mediaStatus,
    media: record.media.map((media) => ({ url: mediaUrl(baseUrl, media.path), width: media.width, height: media.height })),
    thumbnail: record.media[0]?.thumbnailPath ? mediaUrl(baseUrl, record.media[0].thumbnailPath) : null,
    citation: citationText(lang, { title, author, date: record.date, sourceUrl: record.sourceUrl, url, updated: record.updated }),
    updated: record.updated,
  };
}
