/**
 * Text rules shared by every search engine of the archive: the normal form of searchable text,
 * what counts as a CJK character, how a CJK run becomes overlapping bigrams, how search text
 * splits into terms, and how many typos a word may carry. Pure functions, no engine in them.
 */

const CJK_CLASS = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\u3005\\u3007';

/** A maximal run of CJK characters (global: use with replace or matchAll). */
export const CJK_RUN = new RegExp(`[${CJK_CLASS}]+`, 'gu');
/** One CJK character. */
export const CJK_CHARACTER = new RegExp(`[${CJK_CLASS}]`, 'u');

/** Normal form of searchable text: NFKC (full-width letters become ASCII), lower case. */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** The overlapping character bigrams of a CJK run; a run of one character is that character. */
export function cjkBigrams(run: string): string[] {
  const characters = [...run];
  if (characters.length === 1) return characters;
  const bigrams: string[] = [];
  for (let i = 0; i + 1 < characters.length; i += 1) bigrams.push(`${characters[i]}${characters[i + 1]}`);
  return bigrams;
}

/** The CJK runs of a text, after normalization, in order. */
export function cjkRuns(text: string): string[] {
  return [...normalizeText(text).matchAll(CJK_RUN)].map((match) => match[0]);
}

const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;

/** The words of a text without CJK characters: runs of letters, digits and marks. */
export function wordTokens(text: string): string[] {
  return [...text.matchAll(TOKEN)].map((match) => match[0]);
}

/** One unit of a query: a single word (typo and prefix candidate) or a phrase of consecutive tokens. */
export type QueryTerm =
  | { type: 'word'; word: string; last: boolean }
  | { type: 'phrase'; tokens: string[]; prefixLast: boolean };

/**
 * Splits search text into terms. Whitespace separates terms; inside one whitespace-free chunk,
 * tokens joined by punctuation ("gpt-4o") form a phrase, and a Chinese run becomes a phrase of
 * its bigrams (a single Chinese character becomes a prefix).
 */
export function parseQuery(text: string): QueryTerm[] {
  const chunks = normalizeText(text).split(/\s+/u).filter(Boolean);
  const terms: QueryTerm[] = [];
  chunks.forEach((chunk, chunkIndex) => {
    const last = chunkIndex === chunks.length - 1;
    const tokens: string[] = [];
    let endsWithSingleCjk = false;
    for (const piece of chunk.replace(CJK_RUN, (run) => ` ${run} `).split(' ')) {
      if (!piece) continue;
      if (CJK_CHARACTER.test(piece)) {
        const pieceTokens = cjkBigrams(piece);
        tokens.push(...pieceTokens);
        endsWithSingleCjk = [...piece].length === 1;
      } else {
        tokens.push(...wordTokens(piece));
        endsWithSingleCjk = false;
      }
    }
    if (tokens.length === 0) return;
    const only = tokens[0] ?? '';
    if (tokens.length === 1 && !CJK_CHARACTER.test(only)) terms.push({ type: 'word', word: only, last });
    else terms.push({ type: 'phrase', tokens, prefixLast: endsWithSingleCjk || (last && !CJK_CHARACTER.test(tokens.at(-1) ?? '')) });
  });
  return terms;
}

/** Word lengths from which one and two typos are tolerated. */
export const TYPO_WORD_LENGTH = { oneTypo: 5, twoTypos: 9 } as const;

/** Typos tolerated for a word: one from 5 letters, two from 9. */
export function typoBudget(word: string): number {
  const length = [...word].length;
  if (length >= TYPO_WORD_LENGTH.twoTypos) return 2;
  if (length >= TYPO_WORD_LENGTH.oneTypo) return 1;
  return 0;
}
