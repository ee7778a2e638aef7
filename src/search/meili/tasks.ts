/**
 * Every Meilisearch write is a task; the adapter waits for each one and fails with Meilisearch's
 * own error when the task did not succeed, so nothing is reported done that was not.
 */
import type { EnqueuedTask, EnqueuedTaskPromise, Meilisearch, Task } from 'meilisearch';
import { fromMeili } from './unavailable.ts';

/** A Meilisearch task that ended in failure or cancellation. */
export class MeiliTaskError extends Error {
  /** Meilisearch's error code, e.g. index_not_found. */
  readonly code: string | undefined;

  constructor(readonly task: Task) {
    super(`Meilisearch task ${task.uid} (${task.type}${task.indexUid ? ` on ${task.indexUid}` : ''}) ${task.status}${task.error ? `: ${task.error.message} [${task.error.code}]` : ''}`);
    this.name = 'MeiliTaskError';
    this.code = task.error?.code;
  }
}

/** How long one document task may take; large batches on a busy server take seconds. */
export const TASK_TIMEOUT_MS = 120_000;
/** A settings change re-indexes every document in place; on a large index that takes minutes. */
export const SETTINGS_TASK_TIMEOUT_MS = 30 * 60_000;

function succeeded(task: Task): Task {
  if (task.status !== 'succeeded') throw new MeiliTaskError(task);
  return task;
}

/** Waits until the task has finished; throws MeiliTaskError unless it succeeded. */
export async function settle(enqueued: EnqueuedTaskPromise, timeoutMs = TASK_TIMEOUT_MS): Promise<Task> {
  return succeeded(await fromMeili(enqueued.waitTask({ timeout: timeoutMs, interval: 25 })));
}

/** Like settle, for a task enqueued by a plain request. */
export async function settleEnqueued(client: Meilisearch, enqueued: EnqueuedTask, timeoutMs = TASK_TIMEOUT_MS): Promise<Task> {
  return succeeded(await fromMeili(client.tasks.waitForTask(enqueued.taskUid, { timeout: timeoutMs, interval: 25 })));
}

/** Like settle, but a failure with one of these error codes counts as done (e.g. index_already_exists). */
export async function settleUnless(enqueued: EnqueuedTaskPromise, acceptedCodes: readonly string[]): Promise<void> {
  try {
    await settle(enqueued);
  } catch (error) {
    if (error instanceof MeiliTaskError && error.code !== undefined && acceptedCodes.includes(error.code)) return;
    throw error;
  }
}
