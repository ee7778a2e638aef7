/**
 * Hit sets as bitsets over the catalog's rows in sort-key order. Exact totals are what cost in
 * FTS5 (it counts by walking every matching doclist entry), and a query's parts repeat far more
 * than whole queries do: the same frequent words, prefixes and filters turn up in thousands of
 * different searches. So each part's rows are read from FTS5 once, kept as a bitset, and a query
 * becomes a few word-wide AND / OR / AND-NOT passes and a population count. Because bit order is
 * sort-key order (date descending, then id), a "newest first" page is read straight off the bits.
 */

/** The rows of the catalog at one moment: every sort key, ascending; a row's ordinal is its index. */
export class RowUniverse {
  readonly words: number;

  constructor(readonly keys: Float64Array) {
    this.words = Math.ceil(keys.length / 32);
  }

  get size(): number {
    return this.keys.length;
  }

  /** The set of the given sort keys, which must be ascending (FTS5 returns rowids in that order). */
  setOf(ascendingKeys: readonly number[]): RowSet {
    const bits = new Uint32Array(this.words);
    let ordinal = 0;
    for (const key of ascendingKeys) {
      while (ordinal < this.keys.length && (this.keys[ordinal] as number) < key) ordinal += 1;
      if (ordinal >= this.keys.length) break;
      if (this.keys[ordinal] === key) bits[ordinal >>> 5] = (bits[ordinal >>> 5] as number) | (1 << (ordinal & 31));
    }
    return new RowSet(bits);
  }

  /** No row. */
  none(): RowSet {
    return new RowSet(new Uint32Array(this.words));
  }

  /** Every row. */
  all(): RowSet {
    const bits = new Uint32Array(this.words).fill(0xffffffff);
    const spare = this.words * 32 - this.keys.length;
    if (spare > 0) bits[this.words - 1] = 0xffffffff >>> spare;
    return new RowSet(bits);
  }

  keyAt(ordinal: number): number {
    return this.keys[ordinal] as number;
  }
}

function bitCount(word: number): number {
  let value = word - ((word >>> 1) & 0x55555555);
  value = (value & 0x33333333) + ((value >>> 2) & 0x33333333);
  return (((value + (value >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** A set of rows of one RowUniverse. Immutable: every operation returns a new set. */
export class RowSet {
  private counted: number | undefined;

  constructor(readonly bits: Uint32Array) {}

  get bytes(): number {
    return this.bits.byteLength;
  }

  and(other: RowSet): RowSet {
    const bits = new Uint32Array(this.bits.length);
    for (let i = 0; i < bits.length; i += 1) bits[i] = (this.bits[i] as number) & (other.bits[i] as number);
    return new RowSet(bits);
  }

  or(other: RowSet): RowSet {
    const bits = new Uint32Array(this.bits.length);
    for (let i = 0; i < bits.length; i += 1) bits[i] = (this.bits[i] as number) | (other.bits[i] as number);
    return new RowSet(bits);
  }

  andNot(other: RowSet): RowSet {
    const bits = new Uint32Array(this.bits.length);
    for (let i = 0; i < bits.length; i += 1) bits[i] = (this.bits[i] as number) & ~(other.bits[i] as number);
    return new RowSet(bits);
  }

  equals(other: RowSet): boolean {
    for (let i = 0; i < this.bits.length; i += 1) if (this.bits[i] !== other.bits[i]) return false;
    return true;
  }

  has(ordinal: number): boolean {
    return (((this.bits[ordinal >>> 5] as number) >>> (ordinal & 31)) & 1) === 1;
  }

  count(): number {
    if (this.counted === undefined) {
      let total = 0;
      for (let i = 0; i < this.bits.length; i += 1) total += bitCount(this.bits[i] as number);
      this.counted = total;
    }
    return this.counted;
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

/** Row sets of query parts, kept up to a byte bound; the oldest entries go first. */
export class RowSetCache {
  private readonly entries = new Map<string, RowSet>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): RowSet | undefined {
    const found = this.entries.get(key);
    if (found) {
      this.entries.delete(key);
      this.entries.set(key, found);
    }
    return found;
  }

  set(key: string, set: RowSet): void {
    if (set.bytes > this.maxBytes) return;
    const replaced = this.entries.get(key);
    if (replaced) this.bytes -= replaced.bytes;
    this.entries.delete(key);
    this.entries.set(key, set);
    this.bytes += set.bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }
}
