/**
 * Text rules shared by every search engine of the archive: the normal form of searchable text,
 * what counts as a CJK character, how a CJK run becomes overlapping bigrams, how search text
 * splits into terms, and how many typos a word may carry. Pure functions, no engine in them.
 */

import { facetValueKey } from '../domain/search-query.ts';

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

/** The overlapping character trigrams of a CJK run; none for a run of fewer than three characters. */
export function cjkTrigrams(run: string): string[] {
  const characters = [...run];
  const trigrams: string[] = [];
  for (let i = 0; i + 2 < characters.length; i += 1) trigrams.push(`${characters[i]}${characters[i + 1]}${characters[i + 2]}`);
  return trigrams;
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

/**
 * One unit of a query: a single word (typo and prefix candidate) or a phrase of consecutive
 * tokens. A quoted phrase matches exactly as written: no typos, no prefix.
 */
export type QueryTerm =
  | { type: 'word'; word: string; last: boolean }
  | {
      type: 'phrase';
      tokens: string[];
      prefixLast: boolean;
      quoted?: true;
      /**
       * The words of an unquoted CJK run of SPLIT_RUN_LENGTH characters or more (runWords:
       * `鹈鹕骑自行车` is 鹈鹕 and 自行). Readers write Chinese without spaces: the typo tier also
       * matches these each anywhere (runsAsWords), after the records holding the run as written.
       */
      words?: string[];
    };

/** A query group matches when every term of one of its alternatives does (`a OR b` is a group of two). */
export interface QueryGroup {
  alternatives: QueryTerm[][];
}

/** Search text as the engines read it. */
export interface ParsedQuery {
  /** Every group must match. */
  groups: QueryGroup[];
  /** A record holding any of these is left out (`-word`, `-"a phrase"`). */
  excluded: QueryTerm[];
  /** The whole text in the form model filters compare (facetValueKey): a model label equal to it is ranked first. */
  label: string;
}

/** One piece of search text before it becomes terms. */
type Piece = { kind: 'chunk' | 'quoted'; text: string; negated: boolean } | { kind: 'or' };

/**
 * The quotation marks that open a phrase, each with the mark that closes it: the ASCII double
 * quote (a full-width one is made ASCII by NFKC), and the marks a Chinese input method writes
 * for it, “…”, 「…」 and 『…』.
 */
const PHRASE_QUOTES: ReadonlyMap<string, string> = new Map([
  ['"', '"'],
  ['\u201c', '\u201d'],
  ['\u300c', '\u300d'],
  ['\u300e', '\u300f'],
]);

/** Cuts search text into whitespace-separated chunks, quoted phrases (a quote never closed runs to the end), `-` exclusions and OR. */
function pieces(text: string): Piece[] {
  const found: Piece[] = [];
  const characters = [...text.normalize('NFKC')];
  let i = 0;
  while (i < characters.length) {
    if (/\s/u.test(characters[i] as string)) {
      i += 1;
      continue;
    }
    let negated = false;
    if (characters[i] === '-' && i + 1 < characters.length && !/\s/u.test(characters[i + 1] as string)) {
      negated = true;
      i += 1;
    }
    const closing = PHRASE_QUOTES.get(characters[i] as string);
    if (closing !== undefined) {
      const close = characters.indexOf(closing, i + 1);
      const end = close < 0 ? characters.length : close;
      found.push({ kind: 'quoted', text: characters.slice(i + 1, end).join(''), negated });
      i = end + 1;
      continue;
    }
    let end = i;
    while (end < characters.length && !/\s/u.test(characters[end] as string) && !PHRASE_QUOTES.has(characters[end] as string)) end += 1;
    const chunk = characters.slice(i, end).join('');
    found.push(chunk === 'OR' && !negated ? { kind: 'or' } : { kind: 'chunk', text: chunk, negated });
    i = end;
  }
  return found;
}

/**
 * The tokens of quoted text, in order: words (runs of letters, digits and marks) and CJK runs as
 * bigrams. A CJK run followed by more of the phrase also ends with its last character, as every
 * indexed run does, so the phrase steps from one run to the next only where the text's run ends
 * there: `"亮起，光束"` finds 亮起，光束 and 亮起 光束, as `"riding, a"` finds "riding a". The
 * first run may end a longer run of the text and the last may begin one.
 */
function tokensOf(text: string): { tokens: string[]; endsWithSingleCjk: boolean } {
  const tokens: string[] = [];
  let endsWithSingleCjk = false;
  let runEnd: string | undefined;
  for (const piece of normalizeText(text).replace(CJK_RUN, (run) => ` ${run} `).split(/\s+/u)) {
    const found = CJK_CHARACTER.test(piece) ? cjkBigrams(piece) : wordTokens(piece);
    if (found.length === 0) continue;
    if (runEnd !== undefined) tokens.push(runEnd);
    tokens.push(...found);
    const characters = [...piece];
    runEnd = CJK_CHARACTER.test(piece) && characters.length > 1 ? characters[characters.length - 1] : undefined;
    endsWithSingleCjk = CJK_CHARACTER.test(piece) && characters.length === 1;
  }
  return { tokens, endsWithSingleCjk };
}

/** Finds the words of CJK text (ICU's dictionary segmentation, as Node's Intl carries it). */
const CJK_WORDS = new Intl.Segmenter('zh', { granularity: 'word' });

/** The words of a CJK run, by the dictionary ICU segments Chinese and Japanese with: `黄昏的灯塔` is 黄昏, 的, 灯塔. */
export function cjkWords(run: string): string[] {
  return [...CJK_WORDS.segment(run)].map((segment) => segment.segment).filter((word) => CJK_CHARACTER.test(word));
}

/** The shortest unquoted CJK run whose words the typo tier also matches apart: a run of two characters is one bigram. */
export const SPLIT_RUN_LENGTH = 3;

/**
 * The words an unquoted CJK run is also matched as in the typo tier: its distinct words of two
 * characters or more (cjkWords), when it has SPLIT_RUN_LENGTH characters or more and they are not
 * the run itself; else undefined. A word of one character is left out: most are particles (的,
 * 里, 用) that a reader does not mean as a condition, and each would open up to 64 bigrams.
 */
export function runWords(run: string): string[] | undefined {
  if ([...run].length < SPLIT_RUN_LENGTH) return undefined;
  const words = [...new Set(cjkWords(run))].filter((word) => [...word].length > 1);
  return words.length === 0 || (words.length === 1 && words[0] === run) ? undefined : words;
}

/** A CJK run as a term: a phrase of its bigrams, a single character a prefix; `withWords`, with its words when it has them (runWords). */
function cjkRunTerm(run: string, withWords: boolean): QueryTerm {
  const term: QueryTerm = { type: 'phrase', tokens: cjkBigrams(run), prefixLast: [...run].length === 1 };
  const words = withWords ? runWords(run) : undefined;
  return words ? { ...term, words } : term;
}

/** Whether any of the terms is a CJK run with words (QueryTerm.words), which runsAsWords takes apart. */
export function holdsRunWithWords(terms: readonly QueryTerm[]): boolean {
  return terms.some((term) => term.type === 'phrase' && term.words);
}

/**
 * The terms with every CJK run that has words (QueryTerm.words) replaced by those words, each a
 * run of its own matched anywhere, as if the reader had typed spaces between them; undefined when
 * no term has words. A record holding the run holds each of its words, so this matches every
 * record the terms do and those holding the words apart.
 */
export function runsAsWords(terms: readonly QueryTerm[]): QueryTerm[] | undefined {
  if (!holdsRunWithWords(terms)) return undefined;
  return terms.flatMap((term) => (term.type === 'phrase' && term.words ? term.words.map((word) => cjkRunTerm(word, false)) : [term]));
}

/**
 * The terms of one whitespace-free chunk: scripts are split apart (`鹈鹕pelican` is the phrase
 * 鹈鹕 and the word pelican), words joined by punctuation stay a phrase (`gpt-4o`), a CJK run is a
 * phrase of its bigrams (a single character a prefix) with its words (QueryTerm.words). `last`
 * marks the chunk that ends the text, whose last word is also a prefix.
 */
function chunkTerms(chunk: string, last: boolean): QueryTerm[] {
  const parts = normalizeText(chunk)
    .split(new RegExp(`(${CJK_RUN.source})`, 'u'))
    .filter((part) => part !== '');
  const terms: QueryTerm[] = [];
  parts.forEach((part, index) => {
    const lastPart = last && index === parts.length - 1;
    if (CJK_CHARACTER.test(part)) {
      terms.push(cjkRunTerm(part, true));
      return;
    }
    const words = wordTokens(part);
    if (words.length === 1) terms.push({ type: 'word', word: words[0] as string, last: lastPart });
    else if (words.length > 1) terms.push({ type: 'phrase', tokens: words, prefixLast: lastPart });
  });
  return terms;
}

/**
 * The phrase of quoted text. A CJK character standing alone at its end is a prefix, as outside
 * quotes: the index holds a character alone only where it ends a run, and inside a run as the
 * first of a bigram, so `"鹈"` would otherwise find only the runs that end with 鹈.
 */
function quotedTerm(text: string): QueryTerm[] {
  const { tokens, endsWithSingleCjk } = tokensOf(text);
  return tokens.length ? [{ type: 'phrase', tokens, prefixLast: endsWithSingleCjk, quoted: true }] : [];
}

/** A term of one CJK character matched as a prefix (cjkRunTerm, a quoted character alone). */
function isSingleCharacterPrefix(term: QueryTerm): term is Extract<QueryTerm, { type: 'phrase' }> {
  const token = term.type === 'phrase' && term.tokens.length === 1 ? term.tokens[0] : undefined;
  return term.type === 'phrase' && term.prefixLast && token !== undefined && [...token].length === 1 && CJK_CHARACTER.test(token);
}

/** How parseSearchText reads a text besides its rules. */
export interface ParseOptions {
  /**
   * How many terms of one CJK character, at most, match as prefixes (the last of the text, those
   * being typed); the others match as written: a character standing alone or ending a run. Each
   * prefix opens up to 64 bigrams (a dense one, FTS5's own prefix query). Every one by default.
   */
  singleCharacterPrefixes?: number;
}

/**
 * Reads search text: whitespace separates terms that must all match; `"a phrase"` matches
 * exactly; `-word` or `-"a phrase"` leaves out records holding it; `a OR b` (OR in capitals,
 * between two terms) matches either. The last word is also a prefix when it ends the text.
 */
export function parseSearchText(text: string, options: ParseOptions = {}): ParsedQuery {
  const found = pieces(text);
  const groups: QueryGroup[] = [];
  const excluded: QueryTerm[] = [];
  const singleCharacters: Extract<QueryTerm, { type: 'phrase' }>[] = [];
  let joinNext = false;
  found.forEach((piece, index) => {
    if (piece.kind === 'or') {
      const next = found[index + 1];
      const previous = found[index - 1];
      // OR between two terms joins them; anywhere else (after or before an exclusion, another OR, an end) it is the word "or".
      if (groups.length > 0 && !joinNext && next !== undefined && next.kind !== 'or' && !next.negated && previous !== undefined && previous.kind !== 'or' && !previous.negated) joinNext = true;
      else groups.push({ alternatives: [chunkTerms('or', index === found.length - 1)] });
      return;
    }
    const terms = piece.kind === 'quoted' ? quotedTerm(piece.text) : chunkTerms(piece.text, index === found.length - 1 && !piece.negated);
    if (terms.length === 0) return;
    singleCharacters.push(...terms.filter(isSingleCharacterPrefix));
    if (piece.negated) excluded.push(...terms);
    else if (joinNext) groups.at(-1)?.alternatives.push(terms);
    else groups.push({ alternatives: [terms] });
    if (!piece.negated) joinNext = false;
  });
  // The terms are made here, for this query alone: the earlier ones are changed in place.
  const prefixes = options.singleCharacterPrefixes ?? Infinity;
  for (const term of singleCharacters.slice(0, Math.max(0, singleCharacters.length - prefixes))) term.prefixLast = false;
  return { groups, excluded, label: facetValueKey(text) };
}

/** How many words a text holds, a run of CJK characters counting as one. */
function wordsOf(text: string): number {
  return wordTokens(normalizeText(text).replace(CJK_RUN, ' x ')).length;
}

/**
 * How many words search text holds: in all (`all`, the OR operator and every run of CJK
 * characters counting one each), and in its phrases (`inPhrases`: quoted text, and words joined
 * by punctuation, as chunkTerms makes them; excluded ones too). What MAX_QUERY_WORDS and
 * MAX_PHRASE_WORDS bound.
 */
export function queryWords(text: string): { all: number; inPhrases: number } {
  let all = 0;
  let inPhrases = 0;
  for (const piece of pieces(text)) {
    if (piece.kind === 'or') {
      all += 1;
      continue;
    }
    const words = wordsOf(piece.text);
    all += words;
    if (piece.kind === 'quoted') inPhrases += words;
    else {
      for (const part of normalizeText(piece.text).split(CJK_RUN)) {
        const joined = wordTokens(part).length;
        if (joined > 1) inPhrases += joined;
      }
    }
  }
  return { all, inPhrases };
}

/** How many OR combinations a query makes (engines without OR run one search per combination). */
export function orCombinations(query: ParsedQuery): number {
  return query.groups.reduce((product, group) => product * group.alternatives.length, 1);
}

/** The terms of search text without operators, each required (the engines' form before OR, quotes and exclusions). */
export function parseQuery(text: string): QueryTerm[] {
  return parseSearchText(text).groups.flatMap((group) => group.alternatives[0] ?? []);
}

/** The shortest last word also matched as a prefix: a single letter would open nearly every record. */
export const PREFIX_WORD_LENGTH = 2;

/** Word lengths from which one and two typos are tolerated. */
export const TYPO_WORD_LENGTH = { oneTypo: 5, twoTypos: 9 } as const;

/** Typos tolerated for a word: one from 5 letters, two from 9. */
export function typoBudget(word: string): number {
  const length = [...word].length;
  if (length >= TYPO_WORD_LENGTH.twoTypos) return 2;
  if (length >= TYPO_WORD_LENGTH.oneTypo) return 1;
  return 0;
}
