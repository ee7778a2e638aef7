/**
 * Change numbers in the MongoDB store, and why a follower can trust them.
 *
 * Every record write and removal takes its change numbers (`seq`) from one counter document,
 * incremented with `$inc` INSIDE the same transaction that writes the records or tombstones.
 * Two transactions that both increment the counter conflict on that document: the later one
 * gets a write conflict, is aborted and retried by `withTransaction` after the earlier one has
 * committed, and then reads the counter past the earlier one's numbers. So change numbers are
 * handed out in commit order, with no gaps left by aborted writers (their increment rolls back).
 *
 * Allocating the number outside the transaction would be the classic trap: writer A takes 7,
 * writer B takes 8 and commits first; a follower reading "seq > 6" sees 8, stores 8 as its
 * checkpoint, and never sees 7 when A commits a moment later. With allocation inside the
 * transaction that interleaving cannot happen. Reads of the change feed use majority read
 * concern, a prefix of the replica set's history that can no longer roll back, so a follower
 * never advances past a number that a failover could later hand to another record.
 *
 * The price is that record writes are serialized (the publisher writes a few records per
 * submission; a catalog import writes batches), while reads and the submission queue are not.
 */

/** The change numbers a write of `count` items received, given the counter's value after its `$inc`. */
export function allocatedChangeNumbers(counterAfter: number, count: number): number[] {
  if (!Number.isInteger(counterAfter) || !Number.isInteger(count) || count < 0 || counterAfter < count) {
    throw new RangeError(`counter ${counterAfter} cannot have been incremented by ${count}`);
  }
  return Array.from({ length: count }, (_, index) => counterAfter - count + 1 + index);
}

/** Splits a write into batches that each fit comfortably in one transaction. */
export function inBatches<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`batch size must be a positive integer, got ${size}`);
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size));
  return batches;
}
