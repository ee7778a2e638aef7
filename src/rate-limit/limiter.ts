import { FixedWindowCounter } from './fixed-window.ts';
import type { RateDecision, RatePolicy } from './fixed-window.ts';

export type { RateDecision, RatePolicy } from './fixed-window.ts';

/** Counts requests against a policy. All HTTP workers of one deployment must share one count. */
export interface RateLimiter {
  /** Counts `cost` requests (1 unless said), all or none (FixedWindowCounter.take). */
  take(key: string, policy: RatePolicy, cost?: number): Promise<RateDecision>;
}

/** Counts in this process: for a single process, and for the cluster primary answering its workers. */
export class LocalRateLimiter implements RateLimiter {
  readonly counter = new FixedWindowCounter();

  constructor(private readonly clock: () => number = Date.now) {}

  async take(key: string, policy: RatePolicy, cost = 1): Promise<RateDecision> {
    return this.counter.take(key, policy, this.clock(), cost);
  }
}
