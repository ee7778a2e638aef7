/** Running the real publisher in a test: its suite's fixture, a port with one method wrapped, and a run until a submission is final. */
import { rmSync } from 'node:fs';
import type { Publisher } from '../../indexer/publisher.ts';
import type { SubmissionQueue } from '../../src/domain/ports.ts';
import { FINAL_STATUSES } from '../../src/domain/submission.ts';
import type { SubmissionRecord } from '../../src/domain/submission.ts';
import { openTestBackend } from './backend.ts';
import type { TestBackend } from './backend.ts';
import { ImageServer } from './image-server.ts';
import { temporaryDataDir } from './server.ts';

export type Method = (...args: unknown[]) => unknown;

/** The object with one method replaced by what `around` makes of the original (bound to the object). */
export function intercepting<T extends object>(target: T, method: keyof T & string, around: (original: Method) => Method): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const bound = (value as Method).bind(object);
      return property === method ? around(bound) : bound;
    },
  });
}

/** Starts the publisher and stops it once the submission is final (or the time is up, which throws); the submission as it ended. */
export async function publishUntilFinal(publisher: Publisher, submissions: SubmissionQueue, submissionId: string, timeoutMs = 15_000): Promise<SubmissionRecord> {
  publisher.start();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const status = await submissions.getSubmission(submissionId);
      if (status && FINAL_STATUSES.includes(status.status)) return status;
      if (Date.now() > deadline) throw new Error(`still ${status?.status}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    await publisher.stop();
  }
}

/** A suite's image server serving `files` (path → PNG bytes), and a fresh data folder and test backend for each of its tests. */
export interface PublisherFixture {
  images: ImageServer;
  dataDir(): string;
  backend(): TestBackend;
}

/** Registers the suite's hooks for a PublisherFixture: call it inside `describe`. */
export function publisherFixture(files: () => Promise<Record<string, Buffer>>): PublisherFixture {
  const images = new ImageServer();
  let dataDir = '';
  let testBackend: TestBackend | undefined;
  before(async () => {
    await images.start();
    for (const [path, body] of Object.entries(await files())) images.files.set(path, { type: 'image/png', body });
  });
  after(async () => {
    await images.stop();
  });
  beforeEach(async () => {
    dataDir = temporaryDataDir();
    testBackend = await openTestBackend(dataDir);
  });
  afterEach(async () => {
    await testBackend?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    images,
    dataDir: () => dataDir,
    backend: () => {
      if (!testBackend) throw new Error('the test backend is opened before each test');
      return testBackend;
    },
  };
}
