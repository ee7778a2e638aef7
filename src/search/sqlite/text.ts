/**
 * Text handling of the embedded search engine. Latin-script text is left to FTS5's unicode61
 * tokenizer; runs of Chinese (and other CJK) characters are written as overlapping character
 * bigrams followed by the run's last character, so any substring of two or more characters is a
 * phrase of consecutive bigrams and a single character is a prefix of some token.
 *
 * After a column's text, each CJK run of three or more characters is written again as its
 * overlapping trigrams, behind a separator token (a private-use character no query can hold), so
 * a substring of three or more characters is also a phrase of consecutive trigrams in one run's
 * block. That is the phrase searches ask: FTS5 finds a phrase by stepping through every token's
 * rows, so a phrase of bigrams costs what its densest bigram does, and a trigram is held by far
 * fewer rows (at a million synthetic records 塔水彩 by 1 row in 200, where the bigrams 高塔 and
 * 水彩 of 高塔水彩 are each in 1 row in 5).
 */

import { CJK_CHARACTER, CJK_RUN, cjkBigrams, cjkTrigrams, normalizeText } from '../search-text.ts';

export { normalizeText, parseQuery, typoBudget } from '../search-text.ts';
export type { QueryTerm } from '../search-text.ts';

/**
 * The token that opens each run's block of trigrams: a private-use character, which unicode61
 * keeps as a token and query text never yields (its words are letters, digits and marks), so no
 * phrase can match across two runs' blocks or from a column's text into them.
 */
export const TRIGRAM_BLOCK_SEPARATOR = '\ue000';

/** Letters without diacritics, as unicode61 with remove_diacritics stores them. */
export function foldDiacritics(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
}

/** The text an FTS5 column receives for a field: its text with CJK runs as bigrams, then each long run's trigram block. */
export function indexText(text: string): string {
  const blocks: string[] = [];
  const tokens = normalizeText(text).replace(CJK_RUN, (run) => {
    const characters = [...run];
    const bigrams = cjkBigrams(run);
    if (characters.length > 1) bigrams.push(characters[characters.length - 1] ?? '');
    if (characters.length > 2) blocks.push(`${TRIGRAM_BLOCK_SEPARATOR} ${cjkTrigrams(run).join(' ')}`);
    return ` ${bigrams.join(' ')} `;
  });
  return blocks.length > 0 ? `${tokens} ${blocks.join(' ')}` : tokens;
}

/** Whether a token only ever stands in trigram blocks: a trigram of CJK characters, or the blocks' separator. */
export function isTrigramBlockToken(token: string): boolean {
  if (token === TRIGRAM_BLOCK_SEPARATOR) return true;
  const characters = [...token];
  return characters.length === 3 && characters.every((character) => CJK_CHARACTER.test(character));
}

/**
 * The trigram phrase equal to a phrase of bigrams that chain (each starting with the last
 * character of the one before): both match exactly where one CJK run holds the substring they
 * spell. Any other phrase is kept as it is.
 */
export function asTrigramPhrase(tokens: readonly string[]): readonly string[] {
  if (tokens.length < 2) return tokens;
  const characters: string[] = [];
  for (const [i, token] of tokens.entries()) {
    const pair = [...token];
    if (pair.length !== 2 || !pair.every((character) => CJK_CHARACTER.test(character))) return tokens;
    if (i === 0) characters.push(pair[0] as string);
    else if (characters[characters.length - 1] !== pair[0]) return tokens;
    characters.push(pair[1] as string);
  }
  return cjkTrigrams(characters.join(''));
}

/** An FTS5 string literal. */
export function quote(token: string): string {
  return `"${token.replace(/"/g, '""')}"`;
}

/** The tokens unicode61 (with remove_diacritics) makes of an indexed column: runs of letters, digits and private-use characters, folded. */
export function indexTerms(indexed: string): string[] {
  return foldDiacritics(indexed.toLowerCase()).match(/[\p{L}\p{N}\p{Co}]+/gu) ?? [];
}
