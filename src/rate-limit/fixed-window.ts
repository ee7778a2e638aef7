/** One client's standing in a rate-limit policy after counting a request. */
export interface RateDecision {
  allowed: boolean;
  /** Requests left in the current window (0 once refused). */
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

/** A limit: at most `limit` requests per `windowMs` for each key. */
export interface RatePolicy {
  name: string;
  limit: number;
  windowMs: number;
}

interface Window {
  startedAt: number;
  windowMs: number;
  count: number;
}

/** Keys kept before expired windows are swept on the next request. */
const SWEEP_ABOVE = 10_000;

/**
 * Fixed-window counting per key: each key's window starts with its first request and resets
 * `windowMs` later, so the reset time a client is told is exact. Memory is bounded by the number
 * of keys active within one window; expired windows are swept once per window and whenever the
 * map has doubled since the last sweep.
 */
export class FixedWindowCounter {
  private readonly windows = new Map<string, Window>();
  private sweepAt = SWEEP_ABOVE;
  private lastSweep = 0;

  /**
   * Counts `cost` requests at once (an MCP batch counts each of its calls): allowed when all of
   * them fit in what is left of the window, else refused whole and nothing counted. A cost of 0
   * counts nothing and tells whether one more request would be allowed.
   */
  take(key: string, policy: RatePolicy, now: number, cost = 1): RateDecision {
    const mapKey = `${policy.name}\u0000${key}`;
    let window = this.windows.get(mapKey);
    if (!window || now - window.startedAt >= policy.windowMs) {
      window = { startedAt: now, windowMs: policy.windowMs, count: 0 };
      this.windows.set(mapKey, window);
      if (this.windows.size > this.sweepAt || now - this.lastSweep >= policy.windowMs) this.sweep(now);
    }
    const resetMs = window.startedAt + policy.windowMs - now;
    if (window.count + Math.max(cost, 1) > policy.limit) return { allowed: false, remaining: policy.limit - window.count, resetMs };
    window.count += cost;
    return { allowed: true, remaining: policy.limit - window.count, resetMs };
  }

  /** Number of keys held (for tests and metrics). */
  get size(): number {
    return this.windows.size;
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) {
      if (now - window.startedAt >= window.windowMs) this.windows.delete(key);
    }
    this.lastSweep = now;
    this.sweepAt = Math.max(SWEEP_ABOVE, this.windows.size * 2);
  }
}
