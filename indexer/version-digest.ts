/**
 * Comparing what a search index holds with what the store holds, record by record, in bounded
 * memory and in any order (Meilisearch lists documents in its own order).
 *
 * Every (id, change number) pair hashes to 64 bits, added into one of DIGEST_BUCKETS sums chosen
 * by the id alone. Two sides hold the same versions exactly when every bucket's sum agrees (up to
 * a 2^-64 chance per bucket). A first pass over both sides computes the sums; only the ids of the
 * buckets that differ are then read into memory, in a second pass, to name each difference.
 */
import { createHash } from 'node:crypto';
import type { RecordVersion } from '../src/domain/ports.ts';

/** About 100 records per bucket at 100,000 records: a difference costs reading one bucket's ids. */
export const DIGEST_BUCKETS = 1024;

/** The bucket of an id: the same on both sides whatever the version, so a stale entry lands where the current one does. */
export function bucketOf(id: string): number {
  return createHash('sha256').update(id).digest().readUInt16BE(0) % DIGEST_BUCKETS;
}

function pairHash(version: RecordVersion): bigint {
  return createHash('sha256').update(`${version.id}\u0000${version.seq ?? '-'}`).digest().readBigUInt64BE(0);
}

/** Per-bucket sums of the pair hashes of one side, and how many versions it holds. */
export interface VersionDigest {
  sums: BigUint64Array;
  count: number;
}

/** Reads one side once. */
export async function digestOf(versions: AsyncIterable<RecordVersion>): Promise<VersionDigest> {
  const digest: VersionDigest = { sums: new BigUint64Array(DIGEST_BUCKETS), count: 0 };
  for await (const version of versions) {
    const bucket = bucketOf(version.id);
    // A BigUint64Array wraps at 2^64: addition modulo 2^64, in any order.
    digest.sums[bucket] = (digest.sums[bucket] ?? 0n) + pairHash(version);
    digest.count += 1;
  }
  return digest;
}

/** The buckets whose sums differ. */
export function differingBuckets(a: VersionDigest, b: VersionDigest): number[] {
  const buckets: number[] = [];
  for (let bucket = 0; bucket < DIGEST_BUCKETS; bucket += 1) if (a.sums[bucket] !== b.sums[bucket]) buckets.push(bucket);
  return buckets;
}

/** The versions of one side whose ids fall in the given buckets, by id. */
export async function versionsIn(versions: AsyncIterable<RecordVersion>, buckets: ReadonlySet<number>): Promise<Map<string, number | null>> {
  const found = new Map<string, number | null>();
  for await (const version of versions) if (buckets.has(bucketOf(version.id))) found.set(version.id, version.seq);
  return found;
}

/** What an index must change to hold the store's versions: ids to write again, ids to remove. */
export interface VersionDifferences {
  /** In the store, absent from the index. */
  missing: Set<string>;
  /** In both, the index holding another version. */
  stale: Set<string>;
  /** In the index, absent from the store. */
  extra: Set<string>;
}

/** Adds the differences between the store's and one index's versions (of the same buckets) to `into`. */
export function addDifferences(into: VersionDifferences, store: ReadonlyMap<string, number | null>, index: ReadonlyMap<string, number | null>): void {
  for (const [id, seq] of store) {
    const held = index.get(id);
    if (held === undefined) into.missing.add(id);
    else if (held !== seq) into.stale.add(id);
  }
  for (const id of index.keys()) if (!store.has(id)) into.extra.add(id);
}
