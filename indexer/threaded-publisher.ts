/**
 * The publisher of `npm start` with HTTP workers, in a worker thread of the primary
 * (publisher-thread.ts). The primary hands each new connection to a worker in turn (Node's
 * round-robin, which shares long-lived connections out evenly), and it can do so only while its
 * own event loop is free: the publisher inspects previews and writes records on the thread it
 * runs on, and on the primary's main thread it held new connections for up to 10 s while it
 * worked (docs/operations.md, "Who accepts connections").
 */
import { Worker } from 'node:worker_threads';
import type { Logger } from '../src/logger.ts';
import type { Publisher, PublisherOutcome } from './publisher.ts';

/** What the primary asks of the thread. */
export type PublisherThreadCommand = { type: 'wake' } | { type: 'stop' };

/** What the thread tells the primary. */
export type PublisherThreadReport = { type: 'outcome'; outcome: PublisherOutcome } | { type: 'stopped' };

/** A publisher as the primary drives it, in its own thread or not. */
export type RunningPublisher = Pick<Publisher, 'start' | 'wake' | 'stop'>;

const ENTRY = new URL('./publisher-thread.ts', import.meta.url).href;

/**
 * A thread does not inherit the TypeScript loader the process was started with (`--import tsx`):
 * it registers it, then loads the entry. CommonJS, which a worker's eval code is read as.
 */
const BOOTSTRAP = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(ENTRY)}); });`;

/** How long a thread that reported it stopped may take to end by itself. */
const STOPPED_GRACE_MS = 2000;

/** How long after a thread that died unasked another is started. */
const RESTART_DELAY_MS = 500;

export class ThreadedPublisher implements RunningPublisher {
  private thread: Worker | undefined;
  private stopped: Promise<void> | undefined;

  /** @param bootstrap the code the thread runs (the publisher by default; a test's own, to make it die) */
  constructor(
    private readonly logger: Logger,
    private readonly observe?: (outcome: PublisherOutcome) => void,
    private readonly bootstrap = BOOTSTRAP,
  ) {}

  start(): void {
    if (!this.thread && !this.stopped) this.thread = this.spawn();
  }

  wake(): void {
    this.command({ type: 'wake' });
  }

  /** Stops claiming and waits for the submissions in hand, then for the thread to end. */
  stop(): Promise<void> {
    this.stopped ??= new Promise<void>((resolve) => {
      const thread = this.thread;
      if (!thread) return resolve();
      thread.once('exit', () => resolve());
      this.command({ type: 'stop' });
    });
    return this.stopped;
  }

  private command(command: PublisherThreadCommand): void {
    this.thread?.postMessage(command);
  }

  private spawn(): Worker {
    const thread = new Worker(this.bootstrap, { eval: true });
    thread.on('message', (report: PublisherThreadReport) => {
      if (report.type === 'outcome') this.observe?.(report.outcome);
      // Done with its work, it ends once nothing is left on its event loop; if something is, end it.
      if (report.type === 'stopped') setTimeout(() => void thread.terminate(), STOPPED_GRACE_MS).unref();
    });
    thread.on('error', (error) => this.logger.error('the publisher thread failed', { error }));
    thread.on('exit', (code) => {
      if (this.stopped) return;
      // Died unasked (an error above): claims it held return to the queue when their leases expire.
      this.logger.warn('the publisher thread exited; starting another', { code });
      this.thread = undefined;
      setTimeout(() => this.start(), RESTART_DELAY_MS).unref();
    });
    return thread;
  }
}
