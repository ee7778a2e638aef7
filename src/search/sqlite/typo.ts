/**
 * Typo candidates for query words, drawn from the words actually in the index and verified by
 * the optimal-string-alignment (restricted Damerau–Levenshtein) distance.
 */

import { damerauDistance } from '../edit-distance.ts';
import { isTrigramBlockToken } from './text.ts';


function digitsOf(word: string): string {
  return word.replace(/[^0-9]/g, '');
}

/** The characters a word holds, as the bits of their codes modulo 32 (a to z each its own bit). */
function characterBits(word: string): number {
  let bits = 0;
  for (let i = 0; i < word.length; i += 1) bits |= 1 << (word.charCodeAt(i) & 31);
  return bits;
}

function bitCount(bits: number): number {
  let value = bits - ((bits >>> 1) & 0x55555555);
  value = (value & 0x33333333) + ((value >>> 2) & 0x33333333);
  return (Math.imul((value + (value >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

/**
 * A lower bound of the distance between two words from their character bits alone: each edit
 * takes away at most one character of a and brings at most one of b (a transposition neither),
 * so every character of a whose bit b lacks costs an edit of its own, and so does every one of b
 * whose bit a lacks.
 */
function distanceAtLeast(bitsA: number, bitsB: number): number {
  return Math.max(bitCount(bitsA & ~bitsB), bitCount(bitsB & ~bitsA));
}

/**
 * The dictionary words of one length, with what the typo search reads of each before the
 * distance: its digits, its first character and its character bits.
 */
class LengthBucket {
  readonly terms: string[] = [];
  readonly documents: number[] = [];
  readonly digits: string[] = [];
  readonly firsts: (number | undefined)[] = [];
  bits = new Int32Array(16);

  push(term: string, documents: number): void {
    const at = this.terms.length;
    if (at === this.bits.length) {
      const grown = new Int32Array(2 * at);
      grown.set(this.bits);
      this.bits = grown;
    }
    this.terms.push(term);
    this.documents.push(documents);
    this.digits.push(digitsOf(term));
    this.firsts.push(term.codePointAt(0));
    this.bits[at] = characterBits(term);
  }
}

/** Whether a piece of a split word can stand as a word of its own: two characters or more, or one digit. */
function isSplitPiece(piece: string): boolean {
  return piece.length >= 2 || /^[0-9]$/.test(piece);
}

/** A sorted list of terms, searched by halving and grown by merging. */
class SortedTerms {
  constructor(private terms: string[]) {
    this.terms.sort();
  }

  /** The first index whose term is not below term. */
  position(term: string): number {
    let low = 0;
    let high = this.terms.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.terms[middle] ?? '') < term) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  has(term: string): boolean {
    return this.terms[this.position(term)] === term;
  }

  at(index: number): string | undefined {
    return this.terms[index];
  }

  /** Adds terms it lacks; returns those it added. */
  merge(terms: readonly string[]): string[] {
    const fresh = terms.filter((term) => !this.has(term)).sort();
    if (fresh.length === 0) return fresh;
    // One merge pass rather than a splice per term: a Chinese vocabulary can hold a million bigrams.
    const merged = new Array<string>(this.terms.length + fresh.length);
    let old = 0;
    let added = 0;
    for (let at = 0; at < merged.length; at += 1) {
      const next = this.terms[old];
      const addition = fresh[added];
      if (addition === undefined || (next !== undefined && next < addition)) {
        merged[at] = next as string;
        old += 1;
      } else {
        merged[at] = addition;
        added += 1;
      }
    }
    this.terms = merged;
    return fresh;
  }
}

/**
 * The index's words grouped by length, with how many documents hold each. The tokens of trigram
 * blocks (text.ts) are known apart: the vocabulary tells whether the index holds one, but never
 * offers one as a prefix's or a typo's alternative (a query asks trigrams only as a whole substring).
 */
export class Vocabulary {
  private readonly byLength = new Map<number, LengthBucket>();
  private readonly cache = new Map<string, string[]>();
  private readonly words: SortedTerms;
  private readonly blockTokens: SortedTerms;
  private complete = true;

  /**
   * @param entries every term of the index with its document count
   * @param isDictionaryWord which terms may be typo candidates
   */
  constructor(
    entries: readonly { term: string; documents: number }[],
    private readonly isDictionaryWord: (term: string) => boolean,
  ) {
    const words: string[] = [];
    const blockTokens: string[] = [];
    for (const entry of entries) {
      if (isTrigramBlockToken(entry.term)) blockTokens.push(entry.term);
      else {
        words.push(entry.term);
        this.addToBuckets(entry);
      }
    }
    this.words = new SortedTerms(words);
    this.blockTokens = new SortedTerms(blockTokens);
  }

  private addToBuckets(entry: { term: string; documents: number }): void {
    if (!this.isDictionaryWord(entry.term)) return;
    let bucket = this.byLength.get(entry.term.length);
    if (!bucket) {
      bucket = new LengthBucket();
      this.byLength.set(entry.term.length, bucket);
    }
    bucket.push(entry.term, entry.documents);
  }

  /**
   * Whether the index holds the term, when that is known for certain: after a full load, and
   * after additions of terms split exactly as FTS5 splits them. Undefined when not known.
   */
  holds(term: string): boolean | undefined {
    if ((isTrigramBlockToken(term) ? this.blockTokens : this.words).has(term)) return true;
    return this.complete ? false : undefined;
  }

  /**
   * Adds the terms of newly indexed rows that the vocabulary lacks, each as held by one document.
   * Terms of removed rows stay until the next full load: they can only offer a candidate that
   * matches nothing. `exact` says whether the terms were split exactly as FTS5 splits them; when
   * not, the vocabulary can no longer tell that a term is absent (holds answers undefined).
   */
  add(terms: Iterable<string>, exact = true): void {
    if (!exact) this.complete = false;
    const unique = [...new Set(terms)];
    this.blockTokens.merge(unique.filter(isTrigramBlockToken));
    const fresh = this.words.merge(unique.filter((term) => !isTrigramBlockToken(term)));
    if (fresh.length === 0) return;
    for (const term of fresh) this.addToBuckets({ term, documents: 1 });
    this.cache.clear();
  }

  /** Every term that starts with prefix (the prefix itself included), or undefined when more than limit do. */
  withPrefix(prefix: string, limit: number): string[] | undefined {
    const found: string[] = [];
    for (let i = this.words.position(prefix); ; i += 1) {
      const term = this.words.at(i);
      if (term === undefined || !term.startsWith(prefix)) break;
      if (found.length === limit) return undefined;
      found.push(term);
    }
    return found;
  }

  /**
   * The ways a word the index does not hold splits into two words it does, side by side: `gpt4o`
   * into `gpt` and `4o`, `threejs` into `three` and `js` (a model name or a word typed without its
   * hyphen, dot or space). Each piece has two characters or more, or is one digit (`claude3`);
   * when `open` (the last word, matched as a prefix) the second piece may begin a longer word
   * (`gpt4` into `gpt` and the `4` of `4o`). At most limit splits, the longest first piece first.
   */
  splits(word: string, open: boolean, limit = 3): [string, string][] {
    const found: [string, string][] = [];
    const characters = [...word];
    for (let at = characters.length - 1; at >= 1 && found.length < limit; at -= 1) {
      const first = characters.slice(0, at).join('');
      const second = characters.slice(at).join('');
      if (!isSplitPiece(first) || !isSplitPiece(second) || this.holds(first) !== true) continue;
      // withPrefix answers undefined when more words than the limit begin with the piece: some do.
      if (this.holds(second) === true || (open && this.withPrefix(second, 1)?.length !== 0)) found.push([first, second]);
    }
    return found;
  }

  /**
   * Words within the typo budget of word, nearest and most common first, at most limit of them;
   * the word itself excluded. A typo on the first letter counts as two, as in Meilisearch (a word
   * rarely goes wrong at its start, and one edit there reaches many unrelated words: night, light).
   * Digits are never mistyped: a candidate holds the word's digits in the same order, so `qwne3`
   * finds `qwen3` and `qwen3` does not find `qwen2`.
   */
  candidates(word: string, budget: number, limit = 8): string[] {
    if (budget <= 0) return [];
    const key = `${budget}:${word}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const found: { term: string; distance: number; documents: number }[] = [];
    const digits = digitsOf(word);
    const first = word.codePointAt(0);
    const bits = characterBits(word);
    for (let length = word.length - budget; length <= word.length + budget; length += 1) {
      const bucket = this.byLength.get(length);
      if (!bucket) continue;
      const { terms, documents, firsts, bits: termBits } = bucket;
      const lengthGap = Math.abs(length - word.length);
      for (let at = 0; at < terms.length; at += 1) {
        // A typo on the first letter takes one of the budget; the cheap bounds go first, the distance last.
        const left = firsts[at] === first ? budget : budget - 1;
        if (lengthGap > left || distanceAtLeast(bits, termBits[at] ?? 0) > left) continue;
        const term = terms[at] ?? '';
        if (term === word || bucket.digits[at] !== digits) continue;
        const distance = damerauDistance(word, term, left);
        if (distance <= left) found.push({ term, distance: distance + budget - left, documents: documents[at] ?? 0 });
      }
    }
    found.sort((a, b) => a.distance - b.distance || b.documents - a.documents || (a.term < b.term ? -1 : 1));
    const result = found.slice(0, limit).map((entry) => entry.term);
    if (this.cache.size > 20000) this.cache.clear();
    this.cache.set(key, result);
    return result;
  }
}
