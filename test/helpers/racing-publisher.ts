/**
 * One publisher process of test/store/timeline-race.test.ts. Opens the embedded store in the
 * database file named by argv[2] and prints "ready"; then for every "go" line on its standard
 * input it publishes the next work of the JSON file argv[3] (gallery records) as the publish
 * command does (writePublication) and prints "published", or "duplicate" when the other process
 * published the same work first. With argv[4] "previews" it also judges the work's previews as
 * the publish command does: against the published previews it has read (PublishedPreviews), then
 * again inside the write against those written since, judging again when those changed; a work
 * whose preview is like a published one is a "duplicate" too. It closes the store and exits when
 * its input ends.
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { PublishedPreviews } from '../../indexer/published-previews.ts';
import { openBackend } from '../../src/backend.ts';
import { writePublication } from '../../src/domain/ingest/timeline.ts';
import type { PublicationResult } from '../../src/domain/ingest/timeline.ts';
import type { ComparedPreview } from '../../src/domain/previews.ts';
import type { CanonicalRecord } from '../../src/domain/record.ts';

const [databaseFile, worksFile, mode] = process.argv.slice(2);
if (!databaseFile || !worksFile) throw new Error('usage: racing-publisher.ts DATABASE_FILE WORKS_FILE [previews]');
const works = JSON.parse(readFileSync(worksFile, 'utf8')) as CanonicalRecord[];
const backend = await openBackend({ databaseFile }, { migrate: false });
const published = mode === 'previews' ? new PublishedPreviews(backend.store) : undefined;

/** Publishes as the publish command's last step does, judging the previews first when asked to. */
async function publishWork(gallery: CanonicalRecord): Promise<PublicationResult['kind']> {
  if (!published) return (await writePublication(backend.store, gallery)).kind;
  const submissionId = gallery.submissionId ?? '';
  const previews: ComparedPreview[] = gallery.media.map((media) => ({ url: media.path, sha256: media.sha256, blockhash: media.blockhash ?? '' }));
  for (;;) {
    await published.refresh();
    if (published.lookup(previews, submissionId).length > 0) return 'duplicate';
    const written = await writePublication(backend.store, gallery, { judgedAt: published.changeNumber, resemblesAny: (records) => published.lookupAmong(records, previews, submissionId).length > 0 });
    if (written.kind !== 'previews-changed') return written.kind;
  }
}

console.log('ready');
let next = 0;
for await (const line of createInterface({ input: process.stdin })) {
  if (line !== 'go') continue;
  const gallery = works[next];
  next += 1;
  if (!gallery) throw new Error('no work is left to publish');
  console.log((await publishWork(gallery)) === 'written' ? 'published' : 'duplicate');
}
await backend.close();
