import { expect } from 'chai';
import fc from 'fast-check';
import { damerauDistance } from '../../src/search/edit-distance.ts';
import { Vocabulary } from '../../src/search/sqlite/typo.ts';
import { fuzzParameters, runsFor } from '../fuzz/support.ts';

/** The optimal-string-alignment distance over the whole table, without stopping early. */
function plainDistance(a: string, b: string): number {
  const table = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number): number => table[i]?.[j] ?? 0;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, at(i - 2, j - 2) + 1);
      (table[i] ?? [])[j] = value;
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidates as the rule states them, by comparing the word with every dictionary word: within
 * the budget (a different first character costing one more), same digits, nearest and most held
 * first, then by term.
 */
function plainCandidates(entries: readonly { term: string; documents: number }[], isWord: (term: string) => boolean, word: string, budget: number, limit = 8): string[] {
  if (budget <= 0) return [];
  const digits = (text: string): string => text.replace(/[^0-9]/g, '');
  return entries
    .filter((entry) => isWord(entry.term) && entry.term !== word && digits(entry.term) === digits(word))
    .map((entry) => ({ ...entry, distance: plainDistance(word, entry.term) + (entry.term.codePointAt(0) === word.codePointAt(0) ? 0 : 1) }))
    .filter((entry) => entry.distance <= budget)
    .sort((a, b) => a.distance - b.distance || b.documents - a.documents || (a.term < b.term ? -1 : 1))
    .slice(0, limit)
    .map((entry) => entry.term);
}

// Few characters, so that many terms lie within a typo or two of each other; digits, letters with
// diacritics, Greek and a character outside the BMP (two UTF-16 units) among them.
const character = fc.constantFrom('a', 'b', 'c', 'e', 'r', 's', '1', '2', 'é', 'ß', 'α', '😀');
const term = fc.array(character, { minLength: 1, maxLength: 11 }).map((characters) => characters.join(''));

/** A word: a term of the vocabulary with up to three random edits, or any other. */
function queryWord(terms: readonly string[]): fc.Arbitrary<string> {
  const edit = fc.tuple(fc.constantFrom('insert', 'delete', 'replace', 'swap'), fc.nat(), character);
  const edited = fc.tuple(fc.constantFrom(...terms), fc.array(edit, { maxLength: 3 })).map(([start, edits]) => {
    const characters = [...start];
    for (const [kind, position, added] of edits) {
      const at = position % (characters.length + 1);
      if (kind === 'insert') characters.splice(at, 0, added);
      else if (kind === 'delete') characters.splice(at, 1);
      else if (kind === 'replace') characters.splice(at, 1, added);
      else if (at + 1 < characters.length) characters.splice(at, 2, characters[at + 1] ?? '', characters[at] ?? '');
    }
    return characters.join('');
  });
  return fc.oneof(edited, term).filter((word) => word.length > 0);
}

describe('typo candidates', () => {
  it('measures the distance the whole table gives whenever it is within the bound, and some distance above it otherwise', () => {
    fc.assert(
      fc.property(term, term, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
        const plain = plainDistance(a, b);
        const measured = damerauDistance(a, b, max);
        if (plain <= max) expect(measured).to.equal(plain);
        else expect(measured).to.be.above(max);
      }),
      fuzzParameters(runsFor(2000)),
    );
  });

  it('finds the candidates a comparison with every dictionary word finds, in the same order', () => {
    const isWord = (text: string): boolean => !text.startsWith('s');
    const vocabularyAndWords = fc.uniqueArray(term, { minLength: 1, maxLength: 300 }).chain((terms) =>
      fc.record({
        entries: fc.constant(terms).chain((list) => fc.tuple(...list.map((text) => fc.integer({ min: 1, max: 5 }).map((documents) => ({ term: text, documents }))))),
        added: fc.uniqueArray(term, { maxLength: 20 }),
        words: fc.array(fc.tuple(queryWord(terms), fc.integer({ min: 0, max: 2 })), { minLength: 1, maxLength: 30 }),
      }),
    );
    fc.assert(
      fc.property(vocabularyAndWords, ({ entries, added, words }) => {
        const vocabulary = new Vocabulary(entries, isWord);
        for (const [word, budget] of words) {
          expect(vocabulary.candidates(word, budget), `${word} within ${budget}`).to.deep.equal(plainCandidates(entries, isWord, word, budget));
        }
        // Terms of new rows join the vocabulary, each as held by one document.
        vocabulary.add(added);
        const known = new Set(entries.map((entry) => entry.term));
        const grown = [...entries, ...added.filter((text) => !known.has(text)).map((text) => ({ term: text, documents: 1 }))];
        for (const [word, budget] of words) {
          expect(vocabulary.candidates(word, budget), `${word} within ${budget} after additions`).to.deep.equal(plainCandidates(grown, isWord, word, budget));
        }
      }),
      fuzzParameters(runsFor(300)),
    );
  });
});
