/**
 * Text handling of the embedded search engine. Latin-script text is left to FTS5's unicode61
 * tokenizer; runs of Chinese (and other CJK) characters are written as overlapping character
 * bigrams followed by the run's last character, so any substring of two or more characters is a
 * phrase of consecutive bigrams and a single character is a prefix of some token.
 */

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3005\u3007]+/gu;
const CJK_CHARACTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3005\u3007]/u;
const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;

/** Normal form of searchable text: NFKC (full-width letters become ASCII), lower case. */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** Letters without diacritics, as unicode61 with remove_diacritics stores them. */
export function foldDiacritics(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
}

function cjkTokens(run: string): string[] {
  const characters = [...run];
  if (characters.length === 1) return characters;
  const tokens: string[] = [];
  for (let i = 0; i + 1 < characters.length; i += 1) tokens.push(`${characters[i]}${characters[i + 1]}`);
  return tokens;
}

/** The text an FTS5 column receives for a field. */
export function indexText(text: string): string {
  return normalizeText(text).replace(CJK_RUN, (run) => {
    const characters = [...run];
    const tokens = cjkTokens(run);
    if (characters.length > 1) tokens.push(characters[characters.length - 1] ?? '');
    return ` ${tokens.join(' ')} `;
  });
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
        const pieceTokens = cjkTokens(piece);
        tokens.push(...pieceTokens);
        endsWithSingleCjk = [...piece].length === 1;
      } else {
        for (const match of piece.matchAll(TOKEN)) tokens.push(match[0]);
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

/** Typos tolerated for a word: one from 5 letters, two from 9. */
export function typoBudget(word: string): number {
  const length = [...word].length;
  if (length >= 9) return 2;
  if (length >= 5) return 1;
  return 0;
}

/** An FTS5 string literal. */
export function quote(token: string): string {
  return `"${token.replace(/"/g, '""')}"`;
}
