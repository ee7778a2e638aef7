import type { Logger } from './logger.ts';

/** Thrown at a start-up checkpoint after SIGTERM or SIGINT: the start stops there, cleanly. */
export class StartStopped extends Error {
  constructor(readonly signal: string) {
    super(`start-up stopped by ${signal}`);
    this.name = 'StartStopped';
  }
}

/**
 * SIGTERM and SIGINT from the first moment of the process. During start-up a signal is kept, and
 * the start stops at the next `checkpoint` (after the step in hand, such as the demo load's
 * transaction); once the process serves, the first signal runs the stop given to `onStop`.
 */
export class StopSignals {
  #received: string | undefined;
  #stop: ((signal: string, duringStart: boolean) => void) | undefined;

  constructor(private readonly logger: Logger) {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => this.#receive(signal));
  }

  /** Throws StartStopped when a signal came during start-up. */
  checkpoint(): void {
    if (this.#received) throw new StartStopped(this.#received);
  }

  /**
   * From now on the first signal runs `stop`; one that came during start-up runs it at once,
   * with `duringStart` true (the process has not served yet).
   */
  onStop(stop: (signal: string, duringStart: boolean) => void): void {
    this.#stop = stop;
    if (this.#received) stop(this.#received, true);
  }

  #receive(signal: string): void {
    if (this.#received) return;
    this.#received = signal;
    if (this.#stop) this.#stop(signal, false);
    else this.logger.info('stop requested during start-up; stopping after the step in hand', { signal });
  }
}
