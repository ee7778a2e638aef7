/**
 * Text handling of the embedded search engine. Latin-script text is left to FTS5's unicode61
 * tokenizer; runs of Chinese (and other CJK) characters are written as overlapping character
 * bigrams followed by the run's last character, so any substring of two or more characters is a
 * phrase of consecutive bigrams and a single character is a prefix of some token.
 */

import { CJK_RUN, cjkBigrams, normalizeText } from '../search-text.ts';

export { normalizeText, parseQuery, typoBudget } from '../search-text.ts';
export type { QueryTerm } from '../search-text.ts';

/** Letters without diacritics, as unicode61 with remove_diacritics stores them. */
export function foldDiacritics(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
}

/** The text an FTS5 column receives for a field. */
export function indexText(text: string): string {
  return normalizeText(text).replace(CJK_RUN, (run) => {
    const characters = [...run];
    const tokens = cjkBigrams(run);
    if (characters.length > 1) tokens.push(characters[characters.length - 1] ?? '');
    return ` ${tokens.join(' ')} `;
  });
}

/** An FTS5 string literal. */
export function quote(token: string): string {
  return `"${token.replace(/"/g, '""')}"`;
}

/** The tokens unicode61 (with remove_diacritics) makes of an indexed column: runs of letters, digits and private-use characters, folded. */
export function indexTerms(indexed: string): string[] {
  return foldDiacritics(indexed.toLowerCase()).match(/[\p{L}\p{N}\p{Co}]+/gu) ?? [];
}
