/**
 * Reading ahead: the sets of the terms held by 1/64 to 1/2 of the rows, read before a process
 * reports ready for up to a budget (start), then in slices between requests until all are read
 * (inBackground). Which sets, and how each is read and kept, is the row-set planner's
 * (RowSetPlanner.readAheadSteps and readAhead); this keeps where the reading is and schedules it,
 * each slice in one database snapshot.
 */
import type { SqliteDatabase } from '../../store/sqlite/database.ts';
import type { ReadAheadStep, RowSetPlanner } from './row-set-planner.ts';
import type { SearchCaches } from './search-caches.ts';

export class ReadAhead {
  private steps: ReadAheadStep[] = [];
  private next = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly caches: SearchCaches,
    private readonly planner: RowSetPlanner,
  ) {}

  /**
   * Plans the reading for the rows as they are now (the caller has loaded the vocabulary and the
   * universe, in its transaction) and reads for up to budgetMs; returns the number of sets read.
   */
  start(budgetMs: number): number {
    const universe = this.caches.currentUniverse();
    this.steps = universe ? this.planner.readAheadSteps(universe, this.caches.mostHeldTerms()) : [];
    this.next = 0;
    return budgetMs > 0 ? this.more(budgetMs) : 0;
  }

  /** Reads the next sets for up to sliceMs (at least one, when any is left), in one snapshot; returns how many it read. */
  more(sliceMs: number): number {
    if (this.next >= this.steps.length) return 0;
    return this.db
      .transaction(() => {
        this.caches.refresh();
        const universe = this.caches.currentUniverse();
        // Rows rebuilt since (a bulk write): what the steps named may no longer be dense; read ahead no more.
        if (!universe) return 0;
        const from = this.next;
        this.next = this.planner.readAhead(universe, this.steps, from, performance.now() + sliceMs);
        return this.next - from;
      })
      .deferred();
  }

  /** The sets left to read. */
  get left(): number {
    return this.steps.length - this.next;
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
      if (this.left > 0 && this.more(sliceMs) > 0) {
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
}
