/**
 * Testing one row against a row-set expression in JavaScript, without asking FTS5: a phrase (its
 * last token possibly a prefix) in some of the row's columns. A row appended to the universe is
 * tested against every cached set that is used again, so this runs thousands of times per new
 * row, where an FTS5 lookup costs about 40 µs each.
 *
 * It must agree with unicode61 (remove_diacritics 2) exactly, so it only takes text made of
 * characters whose handling is certain: ASCII, Latin-1 punctuation and the Latin-1 letters that
 * fold to an ASCII letter, common punctuation, CJK punctuation and the CJK ideographs of the
 * Unicode version SQLite's tables know. For any other text the caller asks FTS5.
 */

import { indexTerms } from './text.ts';

/** A phrase in some columns: what one cached row set holds. */
export interface PhraseInColumns {
  columns: readonly string[];
  tokens: readonly string[];
  prefix: boolean;
}

const CERTAIN_TEXT = new RegExp(
  '^[' +
    '\\u0000-\\u007f' +
    '\\u00a0-\\u00a9\\u00ab-\\u00b1\\u00b4\\u00b6-\\u00b8\\u00bb\\u00bf' +
    '\\u00c0-\\u00c5\\u00c7-\\u00cf\\u00d1-\\u00d6\\u00d9-\\u00dd\\u00e0-\\u00e5\\u00e7-\\u00ef\\u00f1-\\u00f6\\u00f9-\\u00fd\\u00ff' +
    '\\u2010-\\u2027\\u2030-\\u205e' +
    '\\u3000-\\u3003\\u3008-\\u3011\\u3014-\\u301f' +
    '\\u3400-\\u4db5\\u4e00-\\u9fcc' +
    // The separator of trigram blocks (text.ts), a private-use character: unicode61 keeps it as a token.
    '\\ue000' +
    '\\uff01-\\uff0f\\uff1a-\\uff20\\uff3b-\\uff40\\uff5b-\\uff64' +
    ']*$',
);

/** Whether text is made only of characters whose tokens this module knows for certain. */
export function isCertainText(text: string): boolean {
  return CERTAIN_TEXT.test(text);
}

/** A phrase expression's tokens as FTS5 makes them of its quoted text; undefined when not certain. */
export function phraseTokens(text: string): string[] | undefined {
  if (!isCertainText(text)) return undefined;
  const tokens = indexTerms(text);
  return tokens.length > 0 ? tokens : undefined;
}

/** A row's columns as tokens; undefined when some column holds text that is not certain. */
export function rowTokens(columns: readonly string[], values: readonly (string | null)[]): Map<string, string[]> | undefined {
  const tokens = new Map<string, string[]>();
  for (const [index, column] of columns.entries()) {
    const value = values[index] ?? '';
    if (!isCertainText(value)) return undefined;
    tokens.set(column, indexTerms(value));
  }
  return tokens;
}

/** Whether the row holds the phrase in one of the phrase's columns, as FTS5 would answer. */
export function holdsPhrase(row: ReadonlyMap<string, readonly string[]>, phrase: PhraseInColumns): boolean {
  const { tokens, prefix } = phrase;
  const last = tokens.length - 1;
  for (const column of phrase.columns) {
    const held = row.get(column) ?? [];
    for (let start = 0; start + tokens.length <= held.length; start += 1) {
      let matches = true;
      for (let i = 0; i <= last && matches; i += 1) {
        const token = held[start + i] as string;
        const wanted = tokens[i] as string;
        matches = i === last && prefix ? token.startsWith(wanted) : token === wanted;
      }
      if (matches) return true;
    }
  }
  return false;
}
