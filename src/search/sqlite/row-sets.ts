import { BoundedCache } from '../../bounded-cache.ts';

/**
 * Hit sets as bitsets over the catalog's rows in sort-key order. Exact totals are what cost in
 * FTS5 (it counts by walking every matching doclist entry), and a query's parts repeat far more
 * than whole queries do: the same frequent words, prefixes and filters turn up in thousands of
 * different searches. So each part's rows are read from FTS5 once, kept as a bitset, and a query
 * becomes a few word-wide AND / OR / AND-NOT passes and a population count. Because bit order is
 * sort-key order (date descending, then id), a "newest first" page is read straight off the bits.
 */

/**
 * The rows of the catalog as one process knows them; a row's ordinal is its bit. Built from every
 * sort key in ascending order, then kept current by the writes it is told of: a new or re-indexed
 * row is appended after the ordered ones, a removed or re-indexed row is killed (its bit leaves
 * the live set). Sets made before an append simply lack the new ordinals (see `size`), so writes
 * never force re-reading the sets of frequent words; pages merge the appended rows back into
 * sort-key order. A full rebuild is due once `changes` grows large.
 */
/**
 * Record ids by ordinal, packed in one buffer (ids are ASCII, ids.ts): a page's ids without a
 * statement per row, and without a million strings for the garbage collector to walk.
 */
class PackedIds {
  private bytes: Buffer;
  private starts: Uint32Array;
  private count = 0;

  constructor(ids: readonly string[]) {
    this.bytes = Buffer.allocUnsafe(Math.max(64, ids.reduce((sum, id) => sum + id.length, 0)));
    this.starts = new Uint32Array(ids.length + 1);
    for (const id of ids) this.push(id);
  }

  push(id: string): void {
    const start = this.starts[this.count] as number;
    if (start + id.length > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(start + id.length, this.bytes.length * 2));
      this.bytes.copy(grown, 0, 0, start);
      this.bytes = grown;
    }
    if (this.count + 2 > this.starts.length) {
      const grown = new Uint32Array(Math.max(64, this.starts.length * 2));
      grown.set(this.starts);
      this.starts = grown;
    }
    this.bytes.write(id, start, 'latin1');
    this.count += 1;
    this.starts[this.count] = start + id.length;
  }

  at(ordinal: number): string | undefined {
    if (ordinal >= this.count) return undefined;
    return this.bytes.toString('latin1', this.starts[ordinal] as number, this.starts[ordinal + 1] as number);
  }
}

export class RowUniverse {
  private keys: Float64Array;
  private readonly ids: PackedIds | undefined;
  private used: number;
  /** Ordinals below this are in ascending sort-key order. */
  readonly ordered: number;
  private readonly appended = new Map<number, number>();
  private liveBits: Uint32Array;
  private liveRows: number;
  private killed = 0;
  private liveSet: RowSet | undefined;

  /** @param ids the record id of each key, when the universe is to answer ids (idAt) */
  constructor(ascendingKeys: Float64Array, ids?: readonly string[]) {
    this.keys = ascendingKeys;
    this.ids = ids ? new PackedIds(ids) : undefined;
    this.used = ascendingKeys.length;
    this.ordered = ascendingKeys.length;
    this.liveBits = filledBits(this.used, Math.ceil(this.used / 32));
    this.liveRows = this.used;
  }

  /** Ordinals given out, killed ones included: a set covering fewer lacks the rows appended since. */
  get size(): number {
    return this.used;
  }

  /** Rows alive now. */
  get rows(): number {
    return this.liveRows;
  }

  get words(): number {
    return Math.ceil(this.used / 32);
  }

  /** Rows killed since the build; a set made when this was lower may hold rows that are gone. */
  get kills(): number {
    return this.killed;
  }

  /** A set without the killed rows (the set itself when there are none). */
  live(set: RowSet): RowSet {
    return this.killed > 0 ? set.and(this.all()) : set;
  }

  /** Rows appended or killed since the build. */
  get changes(): number {
    return this.appended.size + this.killed;
  }

  keyAt(ordinal: number): number {
    return this.keys[ordinal] as number;
  }

  isLive(ordinal: number): boolean {
    return (((this.liveBits[ordinal >>> 5] ?? 0) >>> (ordinal & 31)) & 1) === 1;
  }

  /** The live ordinal of a sort key, if the key is a row. */
  private ordinalOf(key: number): number | undefined {
    const appended = this.appended.get(key);
    if (appended !== undefined) return appended;
    const ordinal = searchKeys(this.keys, this.ordered, key);
    return ordinal < this.ordered && this.keys[ordinal] === key && this.isLive(ordinal) ? ordinal : undefined;
  }

  /** Takes a row out: its ordinal stays, but no longer counts or pages. */
  kill(key: number): void {
    const ordinal = this.ordinalOf(key);
    if (ordinal === undefined) return;
    this.appended.delete(key);
    this.liveBits[ordinal >>> 5] = ((this.liveBits[ordinal >>> 5] ?? 0) & ~(1 << (ordinal & 31))) >>> 0;
    this.liveRows -= 1;
    this.killed += 1;
    this.liveSet = undefined;
  }

  /** The record id of an ordinal, when the universe was given ids. */
  idAt(ordinal: number): string | undefined {
    return this.ids?.at(ordinal);
  }

  /** The record id of a live row's sort key, when the universe was given ids. */
  idOfKey(key: number): string | undefined {
    const ordinal = this.ordinalOf(key);
    return ordinal === undefined ? undefined : this.idAt(ordinal);
  }

  /** Gives a (new or re-indexed) row a fresh ordinal after every other, and returns it; a universe given ids needs the row's id. */
  append(key: number, id?: string): number {
    this.kill(key);
    if (this.ids) {
      if (id === undefined) throw new Error(`the id of sort key ${key} is needed`);
      this.ids.push(id);
    }
    if (this.used === this.keys.length) {
      const grown = new Float64Array(Math.max(64, this.keys.length * 2));
      grown.set(this.keys);
      this.keys = grown;
    }
    const ordinal = this.used;
    this.keys[ordinal] = key;
    this.used += 1;
    if (this.liveBits.length < this.words) {
      const grown = new Uint32Array(Math.max(this.words, this.liveBits.length * 2));
      grown.set(this.liveBits);
      this.liveBits = grown;
    }
    this.liveBits[ordinal >>> 5] = ((this.liveBits[ordinal >>> 5] ?? 0) | (1 << (ordinal & 31))) >>> 0;
    this.appended.set(key, ordinal);
    this.liveRows += 1;
    this.liveSet = undefined;
    return ordinal;
  }

  /** The set of the given sort keys, which must be ascending (FTS5 returns rowids in that order); keys that are not live rows are left out. */
  setOf(ascendingKeys: readonly number[]): RowSet {
    if (ascendingKeys.length === 0) return this.none();
    const bits = new Uint32Array(this.words);
    let ordinal = 0;
    for (const key of ascendingKeys) {
      const appended = this.appended.size > 0 ? this.appended.get(key) : undefined;
      if (appended !== undefined) {
        setBit(bits, appended);
        continue;
      }
      while (ordinal < this.ordered && (this.keys[ordinal] as number) < key) ordinal += 1;
      if (ordinal < this.ordered && this.keys[ordinal] === key) setBit(bits, ordinal);
    }
    return this.live(new RowSet(bits));
  }

  /** The live rows whose sort keys lie in a range, bounds included. */
  keyRange(min: number, max: number): RowSet {
    const bits = new Uint32Array(this.words);
    const from = searchKeys(this.keys, this.ordered, min);
    const to = max === Infinity ? this.ordered : searchKeys(this.keys, this.ordered, max, true);
    fillBits(bits, from, to);
    for (const [key, ordinal] of this.appended) if (key >= min && key <= max) setBit(bits, ordinal);
    return this.live(new RowSet(bits));
  }

  /** No row (a set of no words: sets of different lengths combine as if padded with zeros). */
  none(): RowSet {
    return new RowSet(new Uint32Array(0));
  }

  /** Every live row. */
  all(): RowSet {
    this.liveSet ??= new RowSet(this.liveBits.slice(0, this.words));
    return this.liveSet;
  }

  /**
   * Ordinals of one page of a set in sort-key order (ascending, or descending): the ordered rows
   * straight off the bits, merged with the set's appended rows sorted by key.
   */
  page(set: RowSet, offset: number, limit: number, ascending: boolean): number[] {
    const tail = set.membersFrom(this.ordered);
    if (tail.length === 0) return set.page(offset, limit, ascending);
    const direction = ascending ? 1 : -1;
    tail.sort((a, b) => direction * (this.keyAt(a) - this.keyAt(b)));
    const head = set.below(this.ordered);
    const ranks = head.rankIndex();
    const headTotal = head.count();
    // Where each appended row falls among the ordered rows of the set, in the page's direction.
    const headBefore = (ordinal: number): number => {
      const key = this.keyAt(ordinal);
      return ascending ? ranks(searchKeys(this.keys, this.ordered, key)) : headTotal - ranks(searchKeys(this.keys, this.ordered, key, true));
    };
    let tailBefore = 0;
    while (tailBefore < tail.length && headBefore(tail[tailBefore] as number) + tailBefore < offset) tailBefore += 1;
    const fromHead = head.page(offset - tailBefore, limit, ascending);
    const fromTail = tail.slice(tailBefore, tailBefore + limit);
    const merged: number[] = [];
    let i = 0;
    let j = 0;
    while (merged.length < limit && (i < fromHead.length || j < fromTail.length)) {
      const a = fromHead[i];
      const b = fromTail[j];
      if (b === undefined || (a !== undefined && direction * (this.keyAt(a) - this.keyAt(b)) < 0)) {
        merged.push(a as number);
        i += 1;
      } else {
        merged.push(b);
        j += 1;
      }
    }
    return merged;
  }
}

/** The first index below end whose key is at least key (or, when above is set, above key). */
function searchKeys(keys: Float64Array, end: number, key: number, above = false): number {
  let low = 0;
  let high = end;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const middleKey = keys[middle] as number;
    if (middleKey < key || (above && middleKey === key)) low = middle + 1;
    else high = middle;
  }
  return low;
}

function setBit(bits: Uint32Array, ordinal: number): void {
  bits[ordinal >>> 5] = ((bits[ordinal >>> 5] ?? 0) | (1 << (ordinal & 31))) >>> 0;
}

/** Sets the bits from (included) to `to` (excluded). */
function fillBits(bits: Uint32Array, from: number, to: number): void {
  for (let ordinal = from; ordinal < to && ordinal & 31; ordinal += 1) setBit(bits, ordinal);
  let ordinal = from & 31 ? (from | 31) + 1 : from;
  for (; ordinal + 32 <= to; ordinal += 32) bits[ordinal >>> 5] = 0xffffffff;
  for (; ordinal < to; ordinal += 1) setBit(bits, ordinal);
}

/** Words with the first `count` bits set. */
function filledBits(count: number, words: number): Uint32Array {
  const bits = new Uint32Array(words);
  const full = count >>> 5;
  bits.fill(0xffffffff, 0, full);
  if (count & 31) bits[full] = 0xffffffff >>> (32 - (count & 31));
  return bits;
}

function bitCount(word: number): number {
  let value = word - ((word >>> 1) & 0x55555555);
  value = (value & 0x33333333) + ((value >>> 2) & 0x33333333);
  return (((value + (value >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** A set of rows of one RowUniverse. Immutable: every operation returns a new set. Sets made at different universe sizes combine as if the shorter were padded with zeros. */
export class RowSet {
  private counted: number | undefined;

  constructor(readonly bits: Uint32Array) {}

  get bytes(): number {
    return this.bits.byteLength;
  }

  /** The union of sets, in one new array. */
  static union(sets: readonly RowSet[]): RowSet {
    let words = 0;
    for (const set of sets) words = Math.max(words, set.bits.length);
    const bits = new Uint32Array(words);
    for (const set of sets) {
      const other = set.bits;
      for (let i = 0; i < other.length; i += 1) bits[i] = (bits[i] as number) | (other[i] as number);
    }
    return new RowSet(bits);
  }

  /** The intersection of sets (at least one), in one new array. */
  static intersection(sets: readonly RowSet[]): RowSet {
    let words = Infinity;
    for (const set of sets) words = Math.min(words, set.bits.length);
    const bits = (sets[0] as RowSet).bits.slice(0, words);
    for (let s = 1; s < sets.length; s += 1) {
      const other = (sets[s] as RowSet).bits;
      for (let i = 0; i < words; i += 1) bits[i] = (bits[i] as number) & (other[i] as number);
    }
    return new RowSet(bits);
  }

  and(other: RowSet): RowSet {
    const bits = new Uint32Array(Math.min(this.bits.length, other.bits.length));
    for (let i = 0; i < bits.length; i += 1) bits[i] = (this.bits[i] as number) & (other.bits[i] as number);
    return new RowSet(bits);
  }

  or(other: RowSet): RowSet {
    const [longer, shorter] = this.bits.length >= other.bits.length ? [this.bits, other.bits] : [other.bits, this.bits];
    const bits = longer.slice();
    for (let i = 0; i < shorter.length; i += 1) bits[i] = (bits[i] as number) | (shorter[i] as number);
    return new RowSet(bits);
  }

  andNot(other: RowSet): RowSet {
    const bits = this.bits.slice();
    const common = Math.min(bits.length, other.bits.length);
    for (let i = 0; i < common; i += 1) bits[i] = (bits[i] as number) & ~(other.bits[i] as number);
    return new RowSet(bits);
  }

  /** This set with the given ordinals added. */
  with(ordinals: readonly number[], words: number): RowSet {
    const bits = new Uint32Array(Math.max(words, this.bits.length));
    bits.set(this.bits);
    for (const ordinal of ordinals) setBit(bits, ordinal);
    return new RowSet(bits);
  }

  equals(other: RowSet): boolean {
    const words = Math.max(this.bits.length, other.bits.length);
    for (let i = 0; i < words; i += 1) if ((this.bits[i] ?? 0) !== (other.bits[i] ?? 0)) return false;
    return true;
  }

  has(ordinal: number): boolean {
    return (((this.bits[ordinal >>> 5] ?? 0) >>> (ordinal & 31)) & 1) === 1;
  }

  count(): number {
    if (this.counted === undefined) {
      let total = 0;
      for (let i = 0; i < this.bits.length; i += 1) total += bitCount(this.bits[i] as number);
      this.counted = total;
    }
    return this.counted;
  }

  /** Members at or above an ordinal, ascending. */
  membersFrom(first: number): number[] {
    const members: number[] = [];
    for (let index = first >>> 5; index < this.bits.length; index += 1) {
      let word = this.bits[index] as number;
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
    const bits = this.bits.slice(0, Math.ceil(end / 32));
    if (end & 31 && bits.length > end >>> 5) bits[end >>> 5] = ((bits[end >>> 5] as number) & ((1 << (end & 31)) - 1)) >>> 0;
    return new RowSet(bits);
  }

  /** A function counting the members below an ordinal, in constant time. */
  rankIndex(): (ordinal: number) => number {
    const before = new Uint32Array(this.bits.length + 1);
    for (let i = 0; i < this.bits.length; i += 1) before[i + 1] = (before[i] as number) + bitCount(this.bits[i] as number);
    return (ordinal) => {
      const index = ordinal >>> 5;
      if (index >= this.bits.length) return before[this.bits.length] as number;
      const partial = ordinal & 31 ? bitCount(((this.bits[index] as number) & ((1 << (ordinal & 31)) - 1)) >>> 0) : 0;
      return (before[index] as number) + partial;
    };
  }

  /** Ordinals of one page: skip `offset` members, then take up to `limit`, from the low end (ascending) or the high end. */
  page(offset: number, limit: number, ascending: boolean): number[] {
    const ordinals: number[] = [];
    if (limit <= 0) return ordinals;
    let skip = offset;
    const words = this.bits.length;
    for (let step = 0; step < words; step += 1) {
      const index = ascending ? step : words - 1 - step;
      let word = this.bits[index] as number;
      if (word === 0) continue;
      const inWord = bitCount(word);
      if (skip >= inWord) {
        skip -= inWord;
        continue;
      }
      while (word !== 0) {
        const bit = ascending ? 31 - Math.clz32(word & -word) : 31 - Math.clz32(word);
        word = (word & ~(1 << bit)) >>> 0;
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

/** A cached row set, the universe size it was read at (rows appended since are yet to be tested) and the kills it has seen. */
export interface CoveredRowSet {
  set: RowSet;
  covered: number;
  kills: number;
}

/** Row sets of query parts, kept up to a byte bound; the least recently used go first (two generations, see BoundedCache). */
export class RowSetCache {
  private readonly entries: BoundedCache<CoveredRowSet>;

  constructor(maxBytes: number) {
    this.entries = new BoundedCache(maxBytes, (key, entry) => key.length * 2 + entry.set.bytes);
  }

  get(key: string): CoveredRowSet | undefined {
    return this.entries.get(key);
  }

  set(key: string, entry: CoveredRowSet): void {
    this.entries.set(key, entry);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
