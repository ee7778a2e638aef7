/**
 * What each query term matches, tier by tier: as written (`exact`), the last word also as a
 * prefix (`prefix`), and also with typos (`typo`), as alternatives drawn from the vocabulary; and
 * the same as FTS5 expressions, for the planner that counts with FTS5 and for the row sets' keys.
 */
import type { Lang } from '../../domain/record.ts';
import { asTrigramPhrase, quote, typoBudget } from './text.ts';
import { foldAsIndexed } from './unicode61-words.ts';
import type { QueryTerm } from './text.ts';
import { holdsRunWithWords, PREFIX_WORD_LENGTH, runsAsWords } from '../search-text.ts';
import type { QueryGroup } from '../search-text.ts';
import type { Vocabulary } from './typo.ts';

/** The columns a query's words are matched in: every text of the record, in both languages. */
export const TEXT_COLUMNS = '{title_zh title_en notes_zh notes_en model author prompt category}';

/** The column whose match ranks a record first: the title in the language searched. */
export function titleColumn(lang: Lang): string {
  return `{title_${lang}}`;
}
/** The columns whose match ranks a record second, after the title. */
export const METADATA_COLUMNS = '{model author category}';

/** A last word that opens more terms than this is matched with FTS5's own prefix query. */
const PREFIX_EXPANSION_LIMIT = 64;

/** The most typo variants of a phrase asked (see TermExpansion.phraseTypos). */
const PHRASE_TYPO_ALTERNATIVES = 16;

/** One way a query term matches: a token sequence, its last token possibly a prefix. */
export interface Alternative {
  tokens: string[];
  prefix: boolean;
}

export type TermMatch = 'exact' | 'prefix' | 'typo';

/** An alternative as FTS5 query syntax. */
export function ftsAlternative(alternative: Alternative): string {
  return `${quote(alternative.tokens.join(' '))}${alternative.prefix ? ' *' : ''}`;
}

/** The FTS5 expressions of a search's three tiers, filters included. */
export interface TierExpressions {
  exact: string;
  prefixed: string;
  expanded: string;
}

/** Expands query terms into alternatives over a language's vocabulary (loaded and kept current by SearchCaches). */
export class TermExpansion {
  constructor(private readonly vocabulary: (lang: Lang) => Vocabulary) {}

  /**
   * A prefix as the OR of the index terms it opens: unlike FTS5's prefix query, which merges every
   * matching doclist in memory first, an OR of terms streams and stops after the page.
   */
  private prefixAlternatives(lang: Lang, prefix: string): Alternative[] {
    const terms = this.vocabulary(lang).withPrefix(prefix, PREFIX_EXPANSION_LIMIT);
    if (terms === undefined) return [{ tokens: [prefix], prefix: true }];
    if (terms.length === 0) return [{ tokens: [prefix], prefix: false }];
    return terms.map((term) => ({ tokens: [term], prefix: false }));
  }

  /**
   * Words joined by punctuation (`deepsek-r1`, `gemini2.5`) with typos: the phrase again with one
   * or more of its words replaced by their typo candidates, or a word the index lacks by the two
   * it holds that it splits into (`gemini2` as `gemini 2`), at most PHRASE_TYPO_ALTERNATIVES of
   * them, nearest candidates first. A last word that is also a prefix stays one only as written,
   * or as the second word of its split.
   */
  private phraseTypos(tokens: readonly string[], lang: Lang, prefix: boolean): Alternative[] {
    const vocabulary = this.vocabulary(lang);
    const choices = tokens.map((token, index): string[][] => {
      const folded = foldAsIndexed(token);
      const open = prefix && index === tokens.length - 1;
      const splits = vocabulary.holds(folded) === false ? vocabulary.splits(folded, open) : [];
      return [[token], ...vocabulary.candidates(folded, typoBudget(folded)).map((candidate) => [candidate]), ...splits];
    });
    if (choices.every((choice) => choice.length === 1)) return [];
    // Whether the phrase's last word may be a prefix: as written, or the second of a split (splits were asked with `open`).
    let phrases: { tokens: string[]; openEnd: boolean }[] = [{ tokens: [], openEnd: true }];
    for (const choice of choices) {
      phrases = phrases.flatMap((phrase) => choice.map((words, pick) => ({ tokens: [...phrase.tokens, ...words], openEnd: pick === 0 || words.length > 1 }))).slice(0, PHRASE_TYPO_ALTERNATIVES + 1);
    }
    return phrases.slice(1).map((phrase) => ({ tokens: phrase.tokens, prefix: prefix && phrase.openEnd }));
  }

  /** How a term is matched in one tier, as alternatives any of which matches: as written, also as a prefix (last word), also with typos. */
  alternatives(term: QueryTerm, lang: Lang, match: TermMatch): Alternative[] {
    if (term.type === 'phrase') {
      const last = term.tokens.at(-1) ?? '';
      if (term.tokens.length === 1 && term.prefixLast) return this.prefixAlternatives(lang, last);
      const prefix = term.prefixLast && match !== 'exact';
      // A CJK substring of three or more characters is asked as its trigrams (see text.ts).
      const asWritten = { tokens: prefix ? term.tokens : [...asTrigramPhrase(term.tokens)], prefix };
      return match === 'typo' && !term.quoted ? [asWritten, ...this.phraseTypos(term.tokens, lang, prefix)] : [asWritten];
    }
    const open = term.last && [...term.word].length >= PREFIX_WORD_LENGTH;
    const alternatives = match !== 'exact' && open ? this.prefixAlternatives(lang, foldAsIndexed(term.word)) : [{ tokens: [term.word], prefix: false }];
    if (match === 'typo') {
      const folded = foldAsIndexed(term.word);
      const vocabulary = this.vocabulary(lang);
      for (const candidate of vocabulary.candidates(folded, typoBudget(folded))) alternatives.push({ tokens: [candidate], prefix: false });
      // A word the index lacks may be two it holds typed together: matched as those two side by side.
      if (vocabulary.holds(folded) === false) for (const pair of vocabulary.splits(folded, open)) alternatives.push({ tokens: pair, prefix: open });
    }
    return alternatives;
  }

  /** One term in one tier as an FTS5 expression (the OR of its alternatives). */
  termExpression(term: QueryTerm, lang: Lang, match: TermMatch): string {
    const alternatives = this.alternatives(term, lang, match).map(ftsAlternative);
    return alternatives.length === 1 ? (alternatives[0] ?? '') : `(${alternatives.join(' OR ')})`;
  }

  /** Every term of one alternative (a conjunction) in one tier. */
  private conjunctionExpression(terms: readonly QueryTerm[], lang: Lang, match: TermMatch): string {
    return terms.map((term) => this.termExpression(term, lang, match)).join(' AND ');
  }

  /**
   * The conjunctions a group matches in one tier, any of which will do: its alternatives, and in
   * the typo tier each alternative again with its CJK runs as their words (runsAsWords), so that
   * `鹈鹕骑自行车` also finds 骑着自行车的鹈鹕, after the records holding it as written.
   */
  conjunctions(group: QueryGroup, match: TermMatch): QueryTerm[][] {
    if (match !== 'typo' || !group.alternatives.some(holdsRunWithWords)) return group.alternatives;
    const apart = group.alternatives.map(runsAsWords).filter((terms): terms is QueryTerm[] => terms !== undefined);
    return [...group.alternatives, ...apart];
  }

  /** A group (the OR of its conjunctions) in one tier. */
  groupExpression(group: QueryGroup, lang: Lang, match: TermMatch): string {
    const alternatives = this.conjunctions(group, match).map((terms) => `(${this.conjunctionExpression(terms, lang, match)})`);
    return alternatives.length === 1 ? (alternatives[0] ?? '') : `(${alternatives.join(' OR ')})`;
  }

  /** Every group of a query in one tier, in the given columns. */
  textExpression(groups: readonly QueryGroup[], lang: Lang, match: TermMatch, columns: string = TEXT_COLUMNS): string {
    return `${columns} : (${groups.map((group) => this.groupExpression(group, lang, match)).join(' AND ')})`;
  }

  /** Records holding any excluded term as written (no prefix, no typo), in any text column. */
  excludedExpression(terms: readonly QueryTerm[], lang: Lang): string {
    return `${TEXT_COLUMNS} : (${terms.map((term) => this.termExpression(term, lang, 'exact')).join(' OR ')})`;
  }
}
