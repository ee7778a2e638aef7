/**
 * An in-memory index of published preview hashes (256-bit, 64 hex digits) for near-duplicate search:
 * a packed linear scan, eight 32-bit words a hash, leaving each hash as soon as it is too far.
 */

/** A published preview near a query hash. */
export interface HashMatch {
  recordId: string;
  /** Hamming distance to the query (0–256). */
  distance: number;
  /** The indexed hash that matched. */
  hash: string;
}

const WORDS = 8;

/** Value of each hexadecimal digit by character code, -1 for anything else. */
const HEX_VALUE = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < 16; i++) {
    table['0123456789abcdef'.charCodeAt(i)] = i;
    table['0123456789ABCDEF'.charCodeAt(i)] = i;
  }
  return table;
})();

/** Bits set in each 16-bit value. */
const BIT_COUNT = (() => {
  const table = new Uint8Array(1 << 16);
  for (let i = 1; i < table.length; i++) table[i] = (i & 1) + table[i >> 1]!;
  return table;
})();

/** Writes a 64-hex-digit hash into eight 32-bit words of `target` at word offset `at`; throws on a malformed hash. */
function pack(hash: string, target: Uint32Array, at: number): void {
  const malformed = (): TypeError => new TypeError(`not a 256-bit hash of 64 hex digits: ${JSON.stringify(hash)}`);
  if (typeof hash !== 'string' || hash.length !== WORDS * 8) throw malformed();
  for (let word = 0; word < WORDS; word++) {
    let value = 0;
    for (let digit = 0; digit < 8; digit++) {
      const code = hash.charCodeAt(word * 8 + digit);
      const nibble = code < 128 ? HEX_VALUE[code]! : -1;
      if (nibble < 0) throw malformed();
      value = (value << 4) | nibble;
    }
    target[at + word] = value >>> 0;
  }
}

function unpack(source: Uint32Array, at: number): string {
  let hex = '';
  for (let word = 0; word < WORDS; word++) hex += source[at + word]!.toString(16).padStart(8, '0');
  return hex;
}

function sameWords(words: Uint32Array, a: number, b: number): boolean {
  for (let word = 0; word < WORDS; word++) if (words[a + word] !== words[b + word]) return false;
  return true;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Published preview hashes by record id. An id may hold several hashes (a record with several previews);
 * adding the same (id, hash) again is a no-op, and remove drops all of an id's hashes.
 * Search is a linear scan: about 6 ms for 1,000,000 hashes at the thresholds in use (see docs/duplicates.md).
 */
export class HashIndex {
  private words = new Uint32Array(1024 * WORDS);
  private readonly owners: string[] = [];
  /** First slot of each id, and the further slots of ids with several hashes. */
  private readonly firstSlot = new Map<string, number>();
  private readonly moreSlots = new Map<string, number[]>();

  /** Number of hashes held. */
  get size(): number {
    return this.owners.length;
  }

  /** True when the id holds at least one hash. */
  has(recordId: string): boolean {
    return this.firstSlot.has(recordId);
  }

  private slotsOf(recordId: string): number[] {
    const first = this.firstSlot.get(recordId);
    return first === undefined ? [] : [first, ...(this.moreSlots.get(recordId) ?? [])];
  }

  /** The hashes an id holds, lowercase. */
  hashesOf(recordId: string): string[] {
    return this.slotsOf(recordId).map((slot) => unpack(this.words, slot * WORDS));
  }

  /** Adds a hash (64 hex digits, either case) under an id. Throws TypeError on a malformed hash. */
  add(recordId: string, hash: string): void {
    const slot = this.owners.length;
    if ((slot + 1) * WORDS > this.words.length) {
      const grown = new Uint32Array(this.words.length * 2);
      grown.set(this.words);
      this.words = grown;
    }
    pack(hash, this.words, slot * WORDS);
    const first = this.firstSlot.get(recordId);
    if (first === undefined) {
      this.firstSlot.set(recordId, slot);
    } else {
      const more = this.moreSlots.get(recordId) ?? [];
      if (sameWords(this.words, first * WORDS, slot * WORDS) || more.some((other) => sameWords(this.words, other * WORDS, slot * WORDS))) return;
      more.push(slot);
      this.moreSlots.set(recordId, more);
    }
    this.owners.push(recordId);
  }

  /** Removes every hash of an id; returns how many there were (0 for an unknown id). */
  remove(recordId: string): number {
    const slots = this.slotsOf(recordId);
    if (slots.length === 0) return 0;
    this.firstSlot.delete(recordId);
    this.moreSlots.delete(recordId);
    // Highest slot first, so that moving the last entry into a freed slot never moves one of ours.
    for (const slot of slots.sort((a, b) => b - a)) {
      const last = this.owners.length - 1;
      if (slot !== last) {
        const moved = this.owners[last]!;
        this.words.copyWithin(slot * WORDS, last * WORDS, (last + 1) * WORDS);
        this.owners[slot] = moved;
        if (this.firstSlot.get(moved) === last) this.firstSlot.set(moved, slot);
        else {
          const more = this.moreSlots.get(moved)!;
          more[more.indexOf(last)] = slot;
        }
      }
      this.owners.pop();
    }
    return slots.length;
  }

  /**
   * Every id holding a hash within `maxDistance` (inclusive) of `hash`, with its nearest such hash,
   * nearest first (ties by id); at most `limit` of them. Keep maxDistance small (the thresholds): the
   * scan is fast because it leaves far hashes early, and every match costs a sort entry.
   */
  nearest(hash: string, maxDistance: number, limit = Infinity): HashMatch[] {
    const query = new Uint32Array(WORDS);
    pack(hash, query, 0);
    const [q0, q1, q2, q3, q4, q5, q6, q7] = query as unknown as [number, number, number, number, number, number, number, number];
    const t = BIT_COUNT;
    const w = this.words;
    const end = this.owners.length * WORDS;
    const slots: number[] = [];
    const distances: number[] = [];
    for (let at = 0; at < end; at += WORDS) {
      // Popcount by 16-bit table: three words, one more, then the last four, leaving as soon as the
      // running distance is over the limit. Two unrelated words differ in 32 ± 4 bits, so at the
      // thresholds in use (22, 40) three words already leave most unrelated hashes (48 ± 5).
      const a = w[at]! ^ q0;
      const b = w[at + 1]! ^ q1;
      const c = w[at + 2]! ^ q2;
      let d = t[a & 0xffff]! + t[a >>> 16]! + t[b & 0xffff]! + t[b >>> 16]! + t[c & 0xffff]! + t[c >>> 16]!;
      if (d > maxDistance) continue;
      const e = w[at + 3]! ^ q3;
      d += t[e & 0xffff]! + t[e >>> 16]!;
      if (d > maxDistance) continue;
      const f = w[at + 4]! ^ q4;
      const g = w[at + 5]! ^ q5;
      const h = w[at + 6]! ^ q6;
      const k = w[at + 7]! ^ q7;
      d += t[f & 0xffff]! + t[f >>> 16]! + t[g & 0xffff]! + t[g >>> 16]! + t[h & 0xffff]! + t[h >>> 16]! + t[k & 0xffff]! + t[k >>> 16]!;
      if (d > maxDistance) continue;
      slots.push(at / WORDS);
      distances.push(d);
    }
    // Counting sort by distance; ids ordered within a distance only for the distances actually returned.
    const buckets: number[][] = [];
    for (let i = 0; i < slots.length; i++) (buckets[distances[i]!] ??= []).push(slots[i]!);
    const seen = new Set<string>();
    const matches: HashMatch[] = [];
    for (let distance = 0; distance < buckets.length && matches.length < limit; distance++) {
      const bucket = buckets[distance];
      if (!bucket) continue;
      bucket.sort((x, y) => compare(this.owners[x]!, this.owners[y]!));
      for (const slot of bucket) {
        if (matches.length >= limit) break;
        const recordId = this.owners[slot]!;
        if (seen.has(recordId)) continue;
        seen.add(recordId);
        matches.push({ recordId, distance, hash: unpack(w, slot * WORDS) });
      }
    }
    return matches;
  }
}

/** Builds an index from (id, hash) pairs: objects or [id, hash] tuples. Throws TypeError on a malformed hash. */
export function buildHashIndex(entries: Iterable<{ recordId: string; hash: string } | readonly [string, string]>): HashIndex {
  const index = new HashIndex();
  for (const entry of entries) {
    if (Array.isArray(entry)) index.add(entry[0] as string, entry[1] as string);
    else {
      const { recordId, hash } = entry as { recordId: string; hash: string };
      index.add(recordId, hash);
    }
  }
  return index;
}
