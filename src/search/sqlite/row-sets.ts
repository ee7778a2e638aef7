import { BoundedCache } from '../../bounded-cache.ts';
import { RowSet, setBit } from './row-set.ts';

export { RowSet };

/**
 * Hit sets over the catalog's rows in sort-key order. Exact totals are what cost in FTS5 (it
 * counts by walking every matching doclist entry), and a query's parts repeat far more than whole
 * queries do: the same frequent words, prefixes and filters turn up in thousands of different
 * searches. So each part's rows are read from FTS5 once, kept as a set (a bitset, or the list of
 * its members when sparse: row-set.ts), and a query becomes a few AND / OR / AND-NOT passes and a
 * count. Because ordinal order is sort-key order (date descending, then id), a "newest first" page
 * is read straight off the set.
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
    const members = new Uint32Array(ascendingKeys.length);
    let found = 0;
    let ascending = true;
    let ordinal = 0;
    for (const key of ascendingKeys) {
      const appended = this.appended.size > 0 ? this.appended.get(key) : undefined;
      let member: number | undefined = appended;
      if (member === undefined) {
        ordinal = seekKey(this.keys, ordinal, this.ordered, key);
        if (ordinal < this.ordered && this.keys[ordinal] === key) member = ordinal;
      }
      if (member === undefined) continue;
      if (found > 0 && member < (members[found - 1] as number)) ascending = false;
      members[found] = member;
      found += 1;
    }
    // Appended rows have ordinals in the order of their appends, not of their keys.
    const held = found === members.length ? members : members.slice(0, found);
    if (!ascending) held.sort();
    return this.live(RowSet.ofMembers(held, this.words));
  }

  /** The live rows whose sort keys lie in a range, bounds included. */
  keyRange(min: number, max: number): RowSet {
    const bits = new Uint32Array(this.words);
    const from = searchKeys(this.keys, this.ordered, min);
    const to = max === Infinity ? this.ordered : searchKeys(this.keys, this.ordered, max, true);
    fillBits(bits, from, to);
    for (const [key, ordinal] of this.appended) if (key >= min && key <= max) setBit(bits, ordinal);
    return this.live(RowSet.ofBits(bits));
  }

  /** No row (a set of no words: sets of different lengths combine as if padded with zeros). */
  none(): RowSet {
    return RowSet.ofMembers(new Uint32Array(0));
  }

  /** Every live row. */
  all(): RowSet {
    this.liveSet ??= RowSet.ofBits(this.liveBits.slice(0, this.words), this.liveRows);
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

/**
 * The first index from `from` (below `end`) whose key is at least `key`: steps doubling from
 * `from`, then halving, so a set of a few rows is placed in a million keys without walking them.
 */
function seekKey(keys: Float64Array, from: number, end: number, key: number): number {
  if (from >= end || (keys[from] as number) >= key) return from;
  let low = from;
  let step = 1;
  while (low + step < end && (keys[low + step] as number) < key) {
    low += step;
    step *= 2;
  }
  return searchKeys(keys, Math.min(low + step, end), key, false, low + 1);
}

/** The first index from `start` below end whose key is at least key (or, when above is set, above key). */
function searchKeys(keys: Float64Array, end: number, key: number, above = false, start = 0): number {
  let low = start;
  let high = end;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const middleKey = keys[middle] as number;
    if (middleKey < key || (above && middleKey === key)) low = middle + 1;
    else high = middle;
  }
  return low;
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

/** A cached row set, the universe size it was read at (rows appended since are yet to be tested) and the kills it has seen. */
export interface CoveredRowSet {
  set: RowSet;
  covered: number;
  kills: number;
}

/** Share of a row-set cache's bound for sets on trial: read by one search and not yet asked by another. */
const TRIAL_SHARE = 1 / 8;
/** Share of the bound for sets read ahead (keep), which stay until the rows change; the rest (sets asked again) has what trial and this leave, half. */
const READ_AHEAD_SHARE = 3 / 8;
/** Keys of sets ever put on trial that a cache remembers, to know a set asked again after it left. */
const REMEMBERED_KEYS = 32_768;

/** A set on trial, with the number of the search that read it. */
interface TrialRowSet {
  entry: CoveredRowSet;
  search: number;
}

/**
 * Row sets of query parts, kept up to a byte bound, the least recently used first out (BoundedCache).
 * A set one search reads is kept on trial, in an eighth of the bound; asked again by a later
 * search, it moves to the rest. A search's one-off sets (a Chinese phrase, a word with a typo,
 * each set dense at a million records) then push out one another instead of the words and
 * bigrams every other search asks, which would each have to be read from FTS5 again. A set read
 * again after it left (its key remembered) goes straight to the rest. Sets read ahead at start
 * (keep) have a part of their own, 3/8 of the bound, that only a change of the rows empties.
 */
export class RowSetCache {
  private readonly kept: BoundedCache<CoveredRowSet>;
  private readonly trial: BoundedCache<TrialRowSet>;
  /** Sets read ahead (keep), never dropped for room, up to READ_AHEAD_SHARE of the bound. */
  private readonly pinned = new Map<string, CoveredRowSet>();
  private pinnedBytes = 0;
  private readonly bytesOf = (key: string, set: RowSet): number => key.length * 2 + set.bytes;
  private readonly triedKeys = new Set<string>();
  private search = 0;

  constructor(readonly maxBytes: number) {
    this.kept = new BoundedCache(maxBytes * (1 - TRIAL_SHARE - READ_AHEAD_SHARE), (key, entry) => this.bytesOf(key, entry.set));
    this.trial = new BoundedCache(maxBytes * TRIAL_SHARE, (key, { entry }) => this.bytesOf(key, entry.set));
  }

  /** Bytes the sets take, on trial or not, their keys included. */
  get bytes(): number {
    return this.kept.bytes + this.trial.bytes + this.pinnedBytes;
  }

  /** Marks the start of a search: sets it asks that earlier searches read are no longer on trial. */
  nextSearch(): void {
    this.search += 1;
  }

  get(key: string): CoveredRowSet | undefined {
    const pinned = this.pinned.get(key);
    if (pinned) return pinned;
    const kept = this.kept.get(key);
    if (kept) return kept;
    const tried = this.trial.get(key);
    if (tried && tried.search < this.search) {
      this.trial.delete(key);
      this.kept.set(key, tried.entry);
    }
    return tried?.entry;
  }

  set(key: string, entry: CoveredRowSet): void {
    if (this.pinned.has(key)) {
      this.pin(key, entry);
      return;
    }
    const tried = this.trial.get(key);
    if (this.kept.get(key) !== undefined || (tried ? tried.search < this.search : this.triedKeys.has(key))) {
      this.trial.delete(key);
      this.kept.set(key, entry);
      return;
    }
    if (this.triedKeys.size >= REMEMBERED_KEYS) this.triedKeys.clear();
    this.triedKeys.add(key);
    this.trial.set(key, { entry, search: this.search });
  }

  /**
   * Keeps a set read ahead (see RowSetPlanner.readAhead) until the rows change, in its share of
   * the bound; past that share, among the rest. A dense term's set is asked by few searches of a
   * mix (one Chinese bigram in a few hundred), so the rest's least-recently-used order dropped
   * such sets again and again, each read back from FTS5 at 20-30 ms at a million records.
   */
  keep(key: string, entry: CoveredRowSet): void {
    this.trial.delete(key);
    const size = this.bytesOf(key, entry.set);
    if (this.pinned.has(key) || this.pinnedBytes + size <= this.maxBytes * READ_AHEAD_SHARE) this.pin(key, entry);
    else this.kept.set(key, entry);
  }

  private pin(key: string, entry: CoveredRowSet): void {
    const before = this.pinned.get(key);
    if (before) this.pinnedBytes -= this.bytesOf(key, before.set);
    this.pinned.set(key, entry);
    this.pinnedBytes += this.bytesOf(key, entry.set);
  }

  clear(): void {
    this.kept.clear();
    this.trial.clear();
    this.pinned.clear();
    this.pinnedBytes = 0;
  }

  get size(): number {
    return this.kept.size + this.trial.size + this.pinned.size;
  }
}
