/** How long a write the store refused keeps /readyz answering not ready. */
export const WRITE_REFUSAL_WINDOW_MS = 30_000;

/**
 * Remembers when the store last refused a write because it cannot take writes now (a full disk,
 * a read-only file), so /readyz can say so without writing anything itself. Each process learns
 * from the errors its own requests met; the memory fades after the window, since nothing here
 * learns of the writes that succeed.
 */
export class WriteRefusals {
  private lastAt: number | undefined;

  constructor(
    /** Whether an error is such a refusal (by the adapter's own codes). */
    private readonly isRefusal: (error: unknown) => boolean,
    private readonly windowMs = WRITE_REFUSAL_WINDOW_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Looks at an error a request or a job met, and remembers it when it is a refusal. */
  note(error: unknown): void {
    if (this.isRefusal(error)) this.lastAt = this.now();
  }

  /** Whether a write was refused within the window. */
  recent(): boolean {
    return this.lastAt !== undefined && this.now() - this.lastAt < this.windowMs;
  }
}
