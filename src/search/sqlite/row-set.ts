/**
 * A set of row ordinals in one of two forms: a bitset (a bit per row of the universe) or, when
 * the set has fewer members than the bitset has words, the sorted list of its members. Most sets
 * of a search mix are sparse (a word in the title or the metadata, a Chinese phrase, a rare
 * word: a few hundred rows), and at a million rows a bitset takes 125 KB whatever it holds,
 * against 4 bytes a member as a list; so sparse sets cost their size, and the set cache holds as
 * many of them at any catalog size. Every operation takes any mix of the two forms.
 */

/** What a set costs beyond its array: the object, the typed array and its buffer. */
const SET_OVERHEAD_BYTES = 160;

/** Whether `count` members take less room as a list than as `words` words of bits. */
function isSparse(count: number, words: number): boolean {
  return count < words;
}

/**
 * Whether a bitset of `count` members is worth turning into a list: listing its members costs
 * about twice a pass over its words, and a list of more than a quarter of the words saves little
 * on what follows, so only clearly sparse bitsets are listed.
 */
function worthListing(count: number, words: number): boolean {
  return count * 4 < words;
}

export function setBit(bits: Uint32Array, ordinal: number): void {
  bits[ordinal >>> 5] = ((bits[ordinal >>> 5] ?? 0) | (1 << (ordinal & 31))) >>> 0;
}

function hasBit(bits: Uint32Array, ordinal: number): boolean {
  return (((bits[ordinal >>> 5] ?? 0) >>> (ordinal & 31)) & 1) === 1;
}

/** The bits set in each 16-bit value: two lookups count a word faster than bit arithmetic in V8 (64 KB, made once). */
const HALF_WORD_BITS = ((): Uint8Array => {
  const table = new Uint8Array(1 << 16);
  for (let value = 1; value < table.length; value += 1) table[value] = (value & 1) + (table[value >>> 1] as number);
  return table;
})();

/** The bits set in a word, taken as a signed 32-bit integer (or an unsigned one: the same bits). */
function bitCount(word: number): number {
  return (HALF_WORD_BITS[word & 0xffff] as number) + (HALF_WORD_BITS[word >>> 16] as number);
}

/**
 * The words of a bitset as signed integers: V8 reads an Int32Array element as a small integer,
 * a Uint32Array element above 2^31 as a heap number, which makes word loops several times slower.
 */
function signed(bits: Uint32Array): Int32Array {
  return new Int32Array(bits.buffer, bits.byteOffset, bits.length);
}

function countBits(bits: Uint32Array): number {
  const words = signed(bits);
  let total = 0;
  for (let i = 0; i < words.length; i += 1) total += bitCount(words[i] as number);
  return total;
}

/** The members of a bitset holding `count` of them, ascending. */
function membersOfBits(bits: Uint32Array, count: number): Uint32Array {
  const members = new Uint32Array(count);
  const words = signed(bits);
  let n = 0;
  for (let index = 0; index < words.length && n < count; index += 1) {
    let word = words[index] as number;
    while (word !== 0) {
      const bit = 31 - Math.clz32(word & -word);
      word &= ~(1 << bit);
      members[n] = index * 32 + bit;
      n += 1;
    }
  }
  return members;
}

/** The first index at or after `from` whose member is at least `value`. */
function lowerBound(list: Uint32Array, value: number, from = 0): number {
  let low = from;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((list[middle] as number) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The bitset of ascending members, at least `words` words long. */
function bitsOfMembers(members: Uint32Array, words: number): Uint32Array {
  const bits = new Uint32Array(Math.max(words, wordsFor(members)));
  for (let i = 0; i < members.length; i += 1) setBit(bits, members[i] as number);
  return bits;
}

/** Words a bitset needs to hold ascending members. */
function wordsFor(members: Uint32Array): number {
  return members.length === 0 ? 0 : ((members[members.length - 1] as number) >>> 5) + 1;
}

/** Two ascending member lists merged, without repeats. */
function mergeMembers(a: Uint32Array, b: Uint32Array): Uint32Array {
  const merged = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    merged[n] = x <= y ? x : y;
    n += 1;
    if (x <= y) i += 1;
    if (y <= x) j += 1;
  }
  while (i < a.length) merged[n++] = a[i++] as number;
  while (j < b.length) merged[n++] = b[j++] as number;
  return n === merged.length ? merged : merged.slice(0, n);
}

/** Sorts members in place and drops repeats; returns the distinct ones. */
function sortedDistinct(members: Uint32Array): Uint32Array {
  members.sort();
  let n = 0;
  for (let i = 0; i < members.length; i += 1) {
    if (n === 0 || members[i] !== members[n - 1]) {
      members[n] = members[i] as number;
      n += 1;
    }
  }
  return n === members.length ? members : members.slice(0, n);
}

/** A set as it is kept: a bitset's words or the members ascending, and how many members it has. */
export interface StoredRowSet {
  form: 'bits' | 'list';
  array: Uint32Array;
  count: number;
}

/** A set of rows of one RowUniverse. Immutable: every operation returns a new set. Sets made at different universe sizes combine as if the shorter were padded with zeros. */
export class RowSet {
  private counted: number | undefined;

  private constructor(
    /** The bitset, when dense. */
    private readonly bits: Uint32Array | undefined,
    /** The members ascending, when sparse. */
    private readonly list: Uint32Array | undefined,
    counted?: number,
  ) {
    this.counted = list ? list.length : counted;
  }

  /** The set of a bitset (held, not copied); a list of its members when they are far fewer than its words. */
  static ofBits(bits: Uint32Array, count = countBits(bits)): RowSet {
    if (worthListing(count, bits.length)) return new RowSet(undefined, membersOfBits(bits, count));
    return new RowSet(bits, undefined, count);
  }

  /** The set of ascending distinct ordinals (held, not copied); a bitset of at least `words` words when that takes less room. */
  static ofMembers(members: Uint32Array, words = 0): RowSet {
    const length = Math.max(words, wordsFor(members));
    if (isSparse(members.length, length)) return new RowSet(undefined, members);
    return new RowSet(bitsOfMembers(members, length), undefined, members.length);
  }

  /** The set of distinct ordinals in the form asked, whatever their density; a bitset of at least `words` words. */
  static inForm(ordinals: readonly number[], form: 'bits' | 'list', words = 0): RowSet {
    const members = sortedDistinct(Uint32Array.from(ordinals));
    return form === 'list' ? new RowSet(undefined, members) : new RowSet(bitsOfMembers(members, words), undefined);
  }

  /**
   * The set's array as kept (its bitset's words, or its members ascending) and its size: what
   * restored takes back. The array is the set's own, not a copy.
   */
  stored(): StoredRowSet {
    return this.bits ? { form: 'bits', array: this.bits, count: this.count() } : { form: 'list', array: this.list as Uint32Array, count: (this.list as Uint32Array).length };
  }

  /** A set as stored() gave it, its array held, not copied. */
  static restored({ form, array, count }: StoredRowSet): RowSet {
    return form === 'bits' ? new RowSet(array, undefined, count) : new RowSet(undefined, array);
  }

  /** Whether the set is kept as a list of members rather than a bitset. */
  get sparse(): boolean {
    return this.list !== undefined;
  }

  /** Memory the set takes, its array and the objects around it. */
  get bytes(): number {
    return (this.bits ?? this.list ?? new Uint32Array(0)).byteLength + SET_OVERHEAD_BYTES;
  }

  /** The words a bitset of this set has or would need. */
  private get words(): number {
    return this.bits ? this.bits.length : wordsFor(this.list as Uint32Array);
  }

  /** The union of sets: merged lists when they stay sparse, else one new bitset. */
  static union(sets: readonly RowSet[]): RowSet {
    let words = 0;
    let listed = 0;
    let lists = 0;
    for (const set of sets) {
      words = Math.max(words, set.words);
      if (set.list) {
        listed += set.list.length;
        lists += 1;
      }
    }
    if (lists === sets.length && isSparse(listed, words)) {
      if (sets.length === 2) return new RowSet(undefined, mergeMembers((sets[0] as RowSet).list as Uint32Array, (sets[1] as RowSet).list as Uint32Array));
      const members = new Uint32Array(listed);
      let n = 0;
      for (const set of sets) {
        members.set(set.list as Uint32Array, n);
        n += (set.list as Uint32Array).length;
      }
      return new RowSet(undefined, sortedDistinct(members));
    }
    const bits = new Uint32Array(words);
    const target = signed(bits);
    for (const set of sets) {
      if (set.bits) {
        const other = signed(set.bits);
        for (let i = 0; i < other.length; i += 1) target[i] = (target[i] as number) | (other[i] as number);
      } else {
        const list = set.list as Uint32Array;
        for (let i = 0; i < list.length; i += 1) setBit(bits, list[i] as number);
      }
    }
    return RowSet.ofBits(bits);
  }

  /** The intersection of sets (at least one): the smallest list filtered through the others, or word by word when all are bitsets. */
  static intersection(sets: readonly RowSet[]): RowSet {
    let smallest: RowSet | undefined;
    for (const set of sets) if (set.list && (!smallest || set.list.length < (smallest.list as Uint32Array).length)) smallest = set;
    if (smallest) {
      let members = smallest.list as Uint32Array;
      for (const set of sets) if (set !== smallest && members.length > 0) members = set.filter(members, true);
      return new RowSet(undefined, members);
    }
    if (sets.length === 1) return sets[0] as RowSet;
    let words = Infinity;
    for (const set of sets) words = Math.min(words, (set.bits as Uint32Array).length);
    // Written into a new array, not copied from the first set and overwritten: a pass less over 125 KB at a million rows.
    const bits = new Uint32Array(words);
    const target = signed(bits);
    let from = signed((sets[0] as RowSet).bits as Uint32Array);
    let count = 0;
    for (let s = 1; s < sets.length; s += 1) {
      const other = signed((sets[s] as RowSet).bits as Uint32Array);
      const last = s === sets.length - 1;
      for (let i = 0; i < words; i += 1) {
        const word = (from[i] as number) & (other[i] as number);
        target[i] = word;
        if (last) count += bitCount(word);
      }
      from = target;
    }
    return RowSet.ofBits(bits, count);
  }

  /** The members of an ascending list that are in this set (keep) or not in it. */
  private filter(members: Uint32Array, keep: boolean): Uint32Array {
    const kept = new Uint32Array(members.length);
    let n = 0;
    if (this.bits) {
      const bits = this.bits;
      for (let i = 0; i < members.length; i += 1) {
        const member = members[i] as number;
        if (hasBit(bits, member) === keep) kept[n++] = member;
      }
    } else {
      const list = this.list as Uint32Array;
      // Far longer lists are searched by halving from where the last member was found; others walked beside.
      const search = list.length > members.length * 16;
      let j = 0;
      for (let i = 0; i < members.length; i += 1) {
        const member = members[i] as number;
        if (search) j = lowerBound(list, member, j);
        else while (j < list.length && (list[j] as number) < member) j += 1;
        if ((j < list.length && list[j] === member) === keep) kept[n++] = member;
      }
    }
    return n === kept.length ? kept : kept.slice(0, n);
  }

  and(other: RowSet): RowSet {
    return RowSet.intersection([this, other]);
  }

  or(other: RowSet): RowSet {
    return RowSet.union([this, other]);
  }

  andNot(other: RowSet): RowSet {
    if (this.list) return new RowSet(undefined, other.filter(this.list, false));
    if (other.list) {
      const bits = (this.bits as Uint32Array).slice();
      let count = this.count();
      const list = other.list;
      for (let i = 0; i < list.length; i += 1) {
        const member = list[i] as number;
        if (!hasBit(bits, member)) continue;
        bits[member >>> 5] = ((bits[member >>> 5] as number) & ~(1 << (member & 31))) >>> 0;
        count -= 1;
      }
      return RowSet.ofBits(bits, count);
    }
    const bits = new Uint32Array((this.bits as Uint32Array).length);
    const target = signed(bits);
    const kept = signed(this.bits as Uint32Array);
    const taken = signed(other.bits as Uint32Array);
    const common = Math.min(target.length, taken.length);
    let count = 0;
    for (let i = 0; i < common; i += 1) {
      const word = (kept[i] as number) & ~(taken[i] as number);
      target[i] = word;
      count += bitCount(word);
    }
    for (let i = common; i < target.length; i += 1) {
      const word = kept[i] as number;
      target[i] = word;
      count += bitCount(word);
    }
    return RowSet.ofBits(bits, count);
  }

  /** This set with the given ordinals added; `words` is the universe's, which the set may take as a bitset. */
  with(ordinals: readonly number[], words: number): RowSet {
    if (this.list) return RowSet.ofMembers(mergeMembers(this.list, sortedDistinct(Uint32Array.from(ordinals))), words);
    const bits = new Uint32Array(Math.max(words, (this.bits as Uint32Array).length));
    bits.set(this.bits as Uint32Array);
    for (const ordinal of ordinals) setBit(bits, ordinal);
    return RowSet.ofBits(bits);
  }

  equals(other: RowSet): boolean {
    if (this.bits && other.bits) {
      const words = Math.max(this.bits.length, other.bits.length);
      for (let i = 0; i < words; i += 1) if ((this.bits[i] ?? 0) !== (other.bits[i] ?? 0)) return false;
      return true;
    }
    if (this.count() !== other.count()) return false;
    const [listed, probed] = this.list ? [this.list, other] : [other.list as Uint32Array, this];
    for (let i = 0; i < listed.length; i += 1) if (!probed.has(listed[i] as number)) return false;
    return true;
  }

  has(ordinal: number): boolean {
    if (this.bits) return hasBit(this.bits, ordinal);
    const list = this.list as Uint32Array;
    const index = lowerBound(list, ordinal);
    return index < list.length && list[index] === ordinal;
  }

  count(): number {
    this.counted ??= countBits(this.bits as Uint32Array);
    return this.counted;
  }

  /** Calls `visit` with each member, ascending. */
  forEachMember(visit: (ordinal: number) => void): void {
    if (this.list) {
      for (let i = 0; i < this.list.length; i += 1) visit(this.list[i] as number);
      return;
    }
    const bits = signed(this.bits as Uint32Array);
    for (let index = 0; index < bits.length; index += 1) {
      let word = bits[index] as number;
      while (word !== 0) {
        const bit = 31 - Math.clz32(word & -word);
        word &= ~(1 << bit);
        visit(index * 32 + bit);
      }
    }
  }

  /** Members at or above an ordinal, ascending. */
  membersFrom(first: number): number[] {
    if (this.list) return Array.from(this.list.subarray(lowerBound(this.list, first)));
    const bits = this.bits as Uint32Array;
    const members: number[] = [];
    for (let index = first >>> 5; index < bits.length; index += 1) {
      let word = bits[index] as number;
      if (index === first >>> 5) word &= ~((1 << (first & 31)) - 1);
      while (word !== 0) {
        const bit = 31 - Math.clz32(word & -word);
        word = (word & ~(1 << bit)) >>> 0;
        members.push(index * 32 + bit);
      }
    }
    return members;
  }

  /** The members below an ordinal. */
  below(end: number): RowSet {
    if (this.list) return new RowSet(undefined, this.list.slice(0, lowerBound(this.list, end)));
    const bits = (this.bits as Uint32Array).slice(0, Math.ceil(end / 32));
    if (end & 31 && bits.length > end >>> 5) bits[end >>> 5] = ((bits[end >>> 5] as number) & ((1 << (end & 31)) - 1)) >>> 0;
    return RowSet.ofBits(bits);
  }

  /** A function counting the members below an ordinal: in constant time for a bitset, by halving for a list. */
  rankIndex(): (ordinal: number) => number {
    if (this.list) {
      const list = this.list;
      return (ordinal) => lowerBound(list, ordinal);
    }
    const bits = this.bits as Uint32Array;
    const before = new Uint32Array(bits.length + 1);
    for (let i = 0; i < bits.length; i += 1) before[i + 1] = (before[i] as number) + bitCount(bits[i] as number);
    return (ordinal) => {
      const index = ordinal >>> 5;
      if (index >= bits.length) return before[bits.length] as number;
      const partial = ordinal & 31 ? bitCount(((bits[index] as number) & ((1 << (ordinal & 31)) - 1)) >>> 0) : 0;
      return (before[index] as number) + partial;
    };
  }

  /** Ordinals of one page: skip `offset` members, then take up to `limit`, from the low end (ascending) or the high end. */
  page(offset: number, limit: number, ascending: boolean): number[] {
    const ordinals: number[] = [];
    if (limit <= 0) return ordinals;
    if (this.list) {
      const list = this.list;
      if (ascending) return Array.from(list.subarray(offset, offset + limit));
      for (let i = list.length - 1 - offset; i >= 0 && ordinals.length < limit; i -= 1) ordinals.push(list[i] as number);
      return ordinals;
    }
    const bits = signed(this.bits as Uint32Array);
    let skip = offset;
    const words = bits.length;
    for (let step = 0; step < words; step += 1) {
      const index = ascending ? step : words - 1 - step;
      let word = bits[index] as number;
      if (word === 0) continue;
      const inWord = bitCount(word);
      if (skip >= inWord) {
        skip -= inWord;
        continue;
      }
      while (word !== 0) {
        const bit = ascending ? 31 - Math.clz32(word & -word) : 31 - Math.clz32(word);
        word &= ~(1 << bit);
        if (skip > 0) {
          skip -= 1;
          continue;
        }
        ordinals.push(index * 32 + bit);
        if (ordinals.length === limit) return ordinals;
      }
    }
    return ordinals;
  }
}
