/**
 * A memory-bounded cache with least-recently-used eviction in constant time: two generations,
 * each allowed half the bound. Hits in the old generation move to the young one; when the young
 * one is full it becomes the old one and the old one is dropped whole. An entry that was used
 * within the last half-bound of insertions always survives; the rest go roughly oldest first.
 *
 * (A single Map used as an LRU, evicting from the front of its iteration order, gets slower and
 * slower: V8 leaves deleted entries as holes that every new iteration from the front walks over.)
 */
export class BoundedCache<V> {
  private young = new Map<string, V>();
  private old = new Map<string, V>();
  private youngBytes = 0;
  private oldBytes = 0;

  /** @param sizeOf the bytes an entry counts for (its key included) */
  constructor(
    private readonly maxBytes: number,
    private readonly sizeOf: (key: string, value: V) => number,
  ) {}

  get(key: string): V | undefined {
    const young = this.young.get(key);
    if (young !== undefined) return young;
    const old = this.old.get(key);
    if (old === undefined) return undefined;
    this.old.delete(key);
    this.oldBytes -= this.sizeOf(key, old);
    this.put(key, old);
    return old;
  }

  set(key: string, value: V): void {
    const size = this.sizeOf(key, value);
    if (size > this.maxBytes / 2) return;
    this.delete(key);
    this.put(key, value, size);
  }

  delete(key: string): void {
    const young = this.young.get(key);
    if (young !== undefined) {
      this.young.delete(key);
      this.youngBytes -= this.sizeOf(key, young);
    }
    const old = this.old.get(key);
    if (old !== undefined) {
      this.old.delete(key);
      this.oldBytes -= this.sizeOf(key, old);
    }
  }

  clear(): void {
    this.young = new Map();
    this.old = new Map();
    this.youngBytes = 0;
    this.oldBytes = 0;
  }

  /** Bytes held, as sizeOf counts them. */
  get bytes(): number {
    return this.youngBytes + this.oldBytes;
  }

  get size(): number {
    return this.young.size + this.old.size;
  }

  private put(key: string, value: V, size = this.sizeOf(key, value)): void {
    if (this.youngBytes + size > this.maxBytes / 2) {
      this.old = this.young;
      this.oldBytes = this.youngBytes;
      this.young = new Map();
      this.youngBytes = 0;
    }
    this.young.set(key, value);
    this.youngBytes += size;
  }
}
