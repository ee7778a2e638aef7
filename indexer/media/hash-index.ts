/**
 * An in-memory index of published preview hashes (256-bit, 64 hex digits) for near-duplicate search:
 * a packed linear scan, eight 32-bit words a hash, stopping on each hash as soon as it is too far.
 */
import { isPerceptualHash } from './perceptual-hash.ts';

/** A published preview near a query hash. */
export interface HashMatch {
  recordId: string;
  /** Hamming distance to the query (0–256). */
  distance: number;
  /** The indexed hash that matched. */
  hash: string;
}

const WORDS = 8;

/** Writes a 64-hex-digit hash into eight 32-bit words of `target` at word offset `at`. */
function pack(hash: string, target: Uint32Array, at: number): void {
  for (let word = 0; word < WORDS; word++) target[at + word] = parseInt(hash.slice(word * 8, word * 8 + 8), 16) >>> 0;
}

function unpack(source: Uint32Array, at: number): string {
  let hex = '';
  for (let word = 0; word < WORDS; word++) hex += (source[at + word] ?? 0).toString(16).padStart(8, '0');
  return hex;
}

function checked(hash: string): string {
  const lower = hash.toLowerCase();
  if (!isPerceptualHash(lower)) throw new TypeError(`not a 256-bit hash of 64 hex digits: ${JSON.stringify(hash)}`);
  return lower;
}

/**
 * Published preview hashes by record id. An id may hold several hashes (a record with several previews);
 * adding the same (id, hash) again is a no-op, and remove drops all of an id's hashes.
 */
export class HashIndex {
  private words = new Uint32Array(1024 * WORDS);
  private owners: string[] = [];
  private readonly slotsOf = new Map<string, number[]>();

  /** Number of hashes held. */
  get size(): number {
    return this.owners.length;
  }

  /** True when the id holds at least one hash. */
  has(recordId: string): boolean {
    return this.slotsOf.has(recordId);
  }

  /** The hashes an id holds. */
  hashesOf(recordId: string): string[] {
    return (this.slotsOf.get(recordId) ?? []).map((slot) => unpack(this.words, slot * WORDS));
  }

  /** Adds a hash under an id. Throws on a malformed hash. */
  add(recordId: string, hash: string): void {
    const normalised = checked(hash);
    const slots = this.slotsOf.get(recordId) ?? [];
    if (slots.length && slots.some((slot) => unpack(this.words, slot * WORDS) === normalised)) return;
    const slot = this.owners.length;
    if ((slot + 1) * WORDS > this.words.length) {
      const grown = new Uint32Array(this.words.length * 2);
      grown.set(this.words);
      this.words = grown;
    }
    pack(normalised, this.words, slot * WORDS);
    this.owners.push(recordId);
    slots.push(slot);
    this.slotsOf.set(recordId, slots);
  }

  /** Removes every hash of an id; returns how many there were (0 for an unknown id). */
  remove(recordId: string): number {
    const slots = this.slotsOf.get(recordId);
    if (!slots) return 0;
    this.slotsOf.delete(recordId);
    // Highest slot first, so that moving the last entry into a freed slot never moves one of ours.
    for (const slot of [...slots].sort((a, b) => b - a)) {
      const last = this.owners.length - 1;
      if (slot !== last) {
        const movedOwner = this.owners[last] as string;
        this.words.copyWithin(slot * WORDS, last * WORDS, (last + 1) * WORDS);
        this.owners[slot] = movedOwner;
        const movedSlots = this.slotsOf.get(movedOwner);
        if (movedSlots) movedSlots[movedSlots.indexOf(last)] = slot;
      }
      this.owners.pop();
    }
    return slots.length;
  }

  /**
   * Every id holding a hash within `maxDistance` of `hash`, with its nearest such hash, nearest first
   * (ties by id). `limit` caps the answer.
   */
  nearest(hash: string, maxDistance: number, limit = Infinity): HashMatch[] {
    const query = new Uint32Array(WORDS);
    pack(checked(hash), query, 0);
    const [q0, q1, q2, q3, q4, q5, q6, q7] = query as unknown as [number, number, number, number, number, number, number, number];
    const t = BIT_COUNT;
    const w = this.words;
    const end = this.owners.length * WORDS;
    const slots: number[] = [];
    const distances: number[] = [];
    for (let at = 0; at < end; at += WORDS) {
      // Popcount by 16-bit table; two words, two more, then the last four, leaving as soon as the running
      // distance is over the limit (random hashes leave after the first two or four words).
      const a = w[at]! ^ q0;
      const b = w[at + 1]! ^ q1;
      let d = t[a & 0xffff]! + t[a >>> 16]! + t[b & 0xffff]! + t[b >>> 16]!;
      if (d > maxDistance) continue;
      const c = w[at + 2]! ^ q2;
      const e = w[at + 3]! ^ q3;
      d += t[c & 0xffff]! + t[c >>> 16]! + t[e & 0xffff]! + t[e >>> 16]!;
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
    const order = slots.map((_, i) => i).sort((x, y) => distances[x]! - distances[y]! || compare(this.owners[slots[x]!]!, this.owners[slots[y]!]!));
    const seen = new Set<string>();
    const matches: HashMatch[] = [];
    for (const i of order) {
      if (matches.length >= limit) break;
      const recordId = this.owners[slots[i]!]!;
      if (seen.has(recordId)) continue;
      seen.add(recordId);
      matches.push({ recordId, distance: distances[i]!, hash: unpack(w, slots[i]! * WORDS) });
    }
    return matches;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Bits set in each 16-bit value. */
const BIT_COUNT = (() => {
  const table = new Uint8Array(1 << 16);
  for (let i = 1; i < table.length; i++) table[i] = (i & 1) + table[i >> 1]!;
  return table;
})();

/** Builds an index from (id, hash) pairs: objects or [id, hash] tuples. */
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
