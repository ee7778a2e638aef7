/**
 * Reading ahead: the sets of the terms held by 1/64 to 1/2 of the rows, read before a process
 * reports ready for up to a budget (start), then in slices between requests until all are read
 * (inBackground). Which sets, and how each is read and kept, is the row-set planner's
 * (RowSetPlanner.readAheadSteps and readAhead); this keeps where the reading is and schedules it,
 * each slice in one database snapshot.
 *
 * What is read is also copied into the database (read-ahead-copy.ts), and each slice first takes
 * what the copy holds of the sets left: a process starting with nothing changed since the last
 * start reads them all back at once, and workers starting side by side share the work. Each
 * reads its own stripe of the sets first (ReaderStripe), then the rest, of which by then the
 * others have copied most.
 */
import type { SqliteDatabase } from '../../store/sqlite/database.ts';
import type { SearchChangeLog } from './change-log.ts';
import { ReadAheadCopy } from './read-ahead-copy.ts';
import type { CopiedKey, KeyedRowSet } from './read-ahead-copy.ts';
import type { ReadAheadStep, RowSetPlanner } from './row-set-planner.ts';
import type { RowUniverse } from './row-sets.ts';
import type { SearchCaches } from './search-caches.ts';

/** Which of `of` processes reading ahead side by side this one is (index from 0): it reads every `of`-th set from its index first. */
export interface ReaderStripe {
  index: number;
  of: number;
}

/**
 * How often the reading in the background copies what it read: each copy is a commit, which waits
 * for the disk, and the slices read one to a few sets each. The other workers take them this much
 * later at most.
 */
const COPY_INTERVAL_MS = 250;

export const ALONE: ReaderStripe = { index: 0, of: 1 };

/** The steps of the stripe first, each part in the steps' order. */
function stripedFirst(steps: readonly ReadAheadStep[], { index, of }: ReaderStripe): ReadAheadStep[] {
  const mine = (position: number): boolean => position % of === index % of;
  return [...steps.filter((_, position) => mine(position)), ...steps.filter((_, position) => !mine(position))];
}

export class ReadAhead {
  /** The steps left, in the order they will be read, each with the key its set is kept under. */
  private pending: { step: ReadAheadStep; key: string }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly copy: ReadAheadCopy;
  /** The change-log position whose copy this process reads and adds to; undefined when it may not (its universe followed a change). */
  private position: number | undefined;
  /** The last place in the copy looked at. */
  private copySeen = 0;
  /** Sets read from FTS5 and not yet copied. */
  private uncopied: KeyedRowSet[] = [];
  /** When the sets read were last copied (performance.now). */
  private copiedAt = 0;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly caches: SearchCaches,
    private readonly planner: RowSetPlanner,
    changeLog: SearchChangeLog,
  ) {
    this.copy = new ReadAheadCopy(db, changeLog);
  }

  /**
   * Plans the reading for the rows as they are now (the caller has loaded the vocabulary and the
   * universe, in its transaction), takes what the copy holds, and reads for up to budgetMs;
   * returns the number of sets taken and read. What it read is copied by keepCopies, once the
   * caller's transaction is over.
   */
  start(budgetMs: number, stripe: ReaderStripe = ALONE): number {
    const universe = this.caches.currentUniverse();
    const steps = universe ? stripedFirst(this.planner.readAheadSteps(universe, this.caches.mostHeldTerms()), stripe) : [];
    this.pending = steps.map((step) => ({ step, key: this.planner.readAheadKey(step) }));
    this.position = this.caches.pristineUniversePosition();
    this.copySeen = 0;
    this.uncopied = [];
    if (!universe) return 0;
    const taken = this.takeCopied(universe);
    return taken + (budgetMs > 0 && this.pending.length > 0 ? this.readFor(universe, budgetMs) : 0);
  }

  /**
   * Takes what the copy holds of the sets left, then reads the next ones for up to sliceMs (at
   * least one, when any is left), in one snapshot; returns how many sets it took and read. What it
   * read is copied by keepCopies.
   */
  more(sliceMs: number): number {
    if (this.pending.length === 0) return 0;
    return this.db
      .transaction(() => {
        this.caches.refresh();
        const universe = this.caches.currentUniverse();
        // Rows rebuilt since (a bulk write): what the steps named may no longer be dense; read ahead no more.
        if (!universe) return 0;
        if (this.position !== undefined && this.caches.pristineUniversePosition() !== this.position) {
          // The universe followed a write: its ordinals are no longer the copy's.
          this.position = undefined;
          this.uncopied = [];
        }
        const taken = this.takeCopied(universe);
        return taken + (this.pending.length > 0 ? this.readFor(universe, sliceMs) : 0);
      })
      .deferred();
  }

  /** Copies the sets read since the last copy (outside any transaction); those the database refused wait for the next. */
  keepCopies(): void {
    this.copiedAt = performance.now();
    if (this.position !== undefined && this.uncopied.length > 0 && this.copy.keep(this.position, this.uncopied)) this.uncopied = [];
  }

  /** The sets left to read. */
  get left(): number {
    return this.pending.length;
  }

  /**
   * Reads the rest one slice of sliceMs at a time with the event loop free in between, so requests
   * are answered meanwhile (each waits at most a slice, which reads at least one set: at a million
   * records up to about 60 ms); `done` is called when every set is read (at once when none is left).
   */
  inBackground(sliceMs: number, done?: () => void): void {
    const slice = (): void => {
      this.timer = undefined;
      if (!this.db.open) return;
      const going = this.left > 0 && this.more(sliceMs) > 0;
      // Each copy is a commit, and a commit waits for the disk: the sets of many slices go in one.
      if (!going || this.left === 0 || performance.now() - this.copiedAt >= COPY_INTERVAL_MS) this.keepCopies();
      if (going) {
        this.timer = setTimeout(slice, 0);
        this.timer.unref();
        return;
      }
      done?.();
    };
    slice();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Keeps the sets the copy holds of those left, and leaves them out of what is left to read; returns how many. */
  private takeCopied(universe: RowUniverse): number {
    if (this.position === undefined || this.pending.length === 0) return 0;
    const copied = this.copy.keysSince(this.copySeen, this.position);
    if (copied.length === 0) return 0;
    this.copySeen = (copied.at(-1) as CopiedKey).seq;
    const wanted = new Set(this.pending.map(({ key }) => key));
    const taken = new Set<string>();
    for (const { seq, key } of copied) {
      if (!wanted.has(key)) continue;
      const set = this.copy.set(seq, universe.size);
      if (!set) continue;
      this.planner.keepReadAhead(universe, { key, set });
      taken.add(key);
    }
    if (taken.size > 0) this.pending = this.pending.filter(({ key }) => !taken.has(key));
    return taken.size;
  }

  /** Reads the next sets from FTS5 until the deadline (at least one); returns how many. */
  private readFor(universe: RowUniverse, ms: number): number {
    const deadline = performance.now() + ms;
    let read = 0;
    while (this.pending.length > 0 && (read === 0 || performance.now() < deadline)) {
      const { step } = this.pending.shift() as { step: ReadAheadStep };
      const set = this.planner.readAhead(universe, step);
      if (this.position !== undefined) this.uncopied.push(set);
      read += 1;
    }
    return read;
  }
}
