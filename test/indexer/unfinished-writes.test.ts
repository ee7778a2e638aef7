import { expect } from 'chai';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeUnfinishedWrites } from '../../src/media/media-files.ts';
import { createLogger } from '../../src/logger.ts';
import { Publisher } from '../../indexer/publisher.ts';
import { publisherDependencies } from '../../indexer/run-publisher.ts';
import { openEmbeddedBackend } from '../helpers/backend.ts';

const HOUR = 60 * 60_000;

/** A media folder as a killed write leaves it: a finished preview, a temporary file of an hour and a half ago, one of now, and a file that only looks like one. */
function mediaAfterAKill(mediaDir: string): { stale: string; fresh: string; kept: string[] } {
  mkdirSync(join(mediaDir, 'ab'), { recursive: true });
  const preview = 'ab/abcdef.png';
  const stale = 'ab/abcdef.png.0123456789ab.tmp';
  const fresh = 'ab/abcdef.thumb.webp.ba9876543210.tmp';
  const lookalike = 'ab/notes.tmp';
  for (const path of [preview, stale, fresh, lookalike]) writeFileSync(join(mediaDir, path), 'bytes');
  const then = new Date(Date.now() - 1.5 * HOUR);
  for (const path of [stale, lookalike, preview]) utimesSync(join(mediaDir, path), then, then);
  return { stale, fresh, kept: [preview, fresh, lookalike] };
}

describe('the temporary files of preview writes that stopped', () => {
  it('are removed when older than the age given, and nothing else is', async () => {
    const { dataDir, dispose } = await openEmbeddedBackend();
    try {
      const mediaDir = join(dataDir, 'media');
      const { stale, kept } = mediaAfterAKill(mediaDir);
      expect(await removeUnfinishedWrites(mediaDir, HOUR)).to.deep.equal([stale]);
      for (const path of kept) expect(existsSync(join(mediaDir, path)), path).to.equal(true);
      expect(await removeUnfinishedWrites(join(dataDir, 'no-media-yet'), HOUR)).to.deep.equal([]);
    } finally {
      await dispose();
    }
  });

  it('are removed by a publisher as it starts, which says how many', async () => {
    const { dataDir, backend, dispose } = await openEmbeddedBackend();
    try {
      const mediaDir = join(dataDir, 'media');
      const { stale, fresh } = mediaAfterAKill(mediaDir);
      const logs: Record<string, unknown>[] = [];
      const logger = createLogger('info', (line) => logs.push(JSON.parse(line) as Record<string, unknown>));
      const publisher = new Publisher(publisherDependencies(backend, { allowPrivate: false, mediaDir }, logger), { owner: 'test', concurrency: 1, leaseMs: 5000, maxAttempts: 3, pollMs: 50, retryDelayMs: 100, uploadHosts: [] });
      publisher.start();
      await publisher.stop();
      expect(existsSync(join(mediaDir, stale))).to.equal(false);
      expect(existsSync(join(mediaDir, fresh)), 'a write another publisher may be making now').to.equal(true);
      expect(logs.find((line) => line.msg === 'removed the temporary files of preview writes that stopped')).to.deep.include({ files: 1, paths: [stale] });
    } finally {
      await dispose();
    }
  });
});
