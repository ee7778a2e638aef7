/**
 * Duplicate lookup benchmark, run as a child of the runner: builds the publisher's HashIndex with
 * BENCH_HASHES (1,000,000) random 256-bit hashes from a seeded generator, then times lookups at
 * AMBIGUOUS_MAX_DISTANCE. Prints a HashesResult as JSON on stdout. Run with --expose-gc for exact heap figures.
 */
import { HashIndex } from '../../indexer/media/hash-index.ts';
import { AMBIGUOUS_MAX_DISTANCE } from '../../indexer/media/perceptual-hash.ts';
import type { HashesResult, LookupStats } from './types.ts';

const LOOKUPS = 200;
const WARMUP_LOOKUPS = 20;
/** Share of the timed lookups that are a stored hash with a few bits flipped (a near copy); the rest are new hashes. */
const NEAR_SHARE = 0.25;

/** xorshift128+ halves as four 32-bit words of state, seeded by splitmix32: fast and deterministic. */
function generator(seed: number): () => number {
  let s = seed >>> 0;
  const split = (): number => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = split();
  let b = split();
  let c = split();
  let d = split();
  return () => {
    const t = a ^ (a << 11);
    a = b;
    b = c;
    c = d;
    d = (d ^ (d >>> 19) ^ (t ^ (t >>> 8))) >>> 0;
    return d;
  };
}

const scratch = new Uint32Array(8);

/** A random 64-hex-digit hash, as one flat string (no concatenation left for the index to flatten). */
function randomHash(next: () => number): string {
  for (let word = 0; word < 8; word += 1) scratch[word] = next();
  return Buffer.from(scratch.buffer).toString('hex');
}

/** The hash with `bits` distinct bits flipped. */
function flipBits(hash: string, bits: number, next: () => number): string {
  const digits = [...hash].map((digit) => parseInt(digit, 16));
  const flipped = new Set<number>();
  while (flipped.size < bits) flipped.add(next() % 256);
  for (const bit of flipped) digits[bit >> 2] = (digits[bit >> 2] ?? 0) ^ (1 << (bit & 3));
  return digits.map((digit) => digit.toString(16)).join('');
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
}

const round = (value: number, digits = 3): number => Math.round(value * 10 ** digits) / 10 ** digits;

function stats(times: readonly number[], cpuTimes: readonly number[], matches: number): LookupStats {
  const sorted = [...times].sort((a, b) => a - b);
  const cpu = [...cpuTimes].sort((a, b) => a - b);
  return { count: sorted.length, p50: round(quantile(sorted, 0.5)), p99: round(quantile(sorted, 0.99)), max: round(sorted.at(-1) ?? 0), cpuP99: round(quantile(cpu, 0.99)), cpuMax: round(cpu.at(-1) ?? 0), matches };
}

/** Full collections, twice, so freed array buffers (the index's outgrown arrays) are released too. */
const collect = (): void => {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
};

function main(): void {
  const raw = process.env.BENCH_HASHES;
  const count = raw ? Number(raw) : 1_000_000;
  if (!Number.isInteger(count) || count < 1) throw new Error(`BENCH_HASHES must be a positive integer, got "${raw}"`);
  const next = generator(20261122);
  // The hashes are made first, so the build time and heap growth are the index's alone.
  const hashes: string[] = [];
  for (let i = 0; i < count; i += 1) hashes.push(randomHash(next));
  const kept = hashes.filter((_, i) => i % 4000 === 0);
  collect();
  const before = process.memoryUsage();
  const started = performance.now();
  const index = new HashIndex();
  for (const [i, hash] of hashes.entries()) index.add(`g-${i.toString(36)}#0`, hash);
  const buildMs = performance.now() - started;
  collect();
  const after = process.memoryUsage();
  hashes.length = 0;

  const queries: { hash: string; near: boolean }[] = [];
  for (let i = 0; i < WARMUP_LOOKUPS + LOOKUPS; i += 1) {
    const near = next() / 2 ** 32 < NEAR_SHARE;
    const base = kept[next() % kept.length] ?? randomHash(next);
    queries.push(near ? { hash: flipBits(base, 4 + (next() % (AMBIGUOUS_MAX_DISTANCE - 4)), next), near } : { hash: randomHash(next), near });
  }
  const all: number[] = [];
  const nearTimes: number[] = [];
  const newTimes: number[] = [];
  const allCpu: number[] = [];
  const nearCpu: number[] = [];
  const newCpu: number[] = [];
  let nearMatches = 0;
  let newMatches = 0;
  let firstMs = 0;
  for (const [i, query] of queries.entries()) {
    const cpuBefore = process.cpuUsage();
    const began = performance.now();
    const found = index.nearest(query.hash, AMBIGUOUS_MAX_DISTANCE);
    const ms = performance.now() - began;
    const used = process.cpuUsage(cpuBefore);
    const cpuMs = (used.user + used.system) / 1000;
    if (i === 0) firstMs = ms;
    if (i < WARMUP_LOOKUPS) continue;
    all.push(ms);
    allCpu.push(cpuMs);
    if (query.near) {
      nearTimes.push(ms);
      nearCpu.push(cpuMs);
      nearMatches += found.length;
    } else {
      newTimes.push(ms);
      newCpu.push(cpuMs);
      newMatches += found.length;
    }
  }
  const result: HashesResult = {
    hashes: index.size,
    maxDistance: AMBIGUOUS_MAX_DISTANCE,
    buildSeconds: round(buildMs / 1000, 2),
    heapMegabytes: round((after.heapUsed - before.heapUsed) / 2 ** 20, 1),
    arrayBufferMegabytes: round((after.arrayBuffers - before.arrayBuffers) / 2 ** 20, 1),
    rssMegabytes: round(after.rss / 2 ** 20, 0),
    exactHeap: typeof (globalThis as { gc?: unknown }).gc === 'function',
    warmupLookups: WARMUP_LOOKUPS,
    firstLookupMs: round(firstMs),
    all: stats(all, allCpu, nearMatches + newMatches),
    near: stats(nearTimes, nearCpu, nearMatches),
    fresh: stats(newTimes, newCpu, newMatches),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main();
