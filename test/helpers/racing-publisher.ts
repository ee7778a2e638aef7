/**
 * One publisher process of test/store/timeline-race.test.ts. Opens the embedded store in the
 * database file named by argv[2] and prints "ready"; then for every "go" line on its standard
 * input it publishes the next work of the JSON file argv[3] (gallery records) as the publish
 * command does (writePublication) and prints "published", or "duplicate" when the other process
 * published the same work first. It closes the store and exits when its
 * input ends.
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { openBackend } from '../../src/backend.ts';
import { writePublication } from '../../src/domain/ingest/timeline.ts';
import type { CanonicalRecord } from '../../src/domain/record.ts';

const [databaseFile, worksFile] = process.argv.slice(2);
if (!databaseFile || !worksFile) throw new Error('usage: racing-publisher.ts DATABASE_FILE WORKS_FILE');
const works = JSON.parse(readFileSync(worksFile, 'utf8')) as CanonicalRecord[];
const backend = await openBackend({ databaseFile }, { migrate: false });
console.log('ready');
let next = 0;
for await (const line of createInterface({ input: process.stdin })) {
  if (line !== 'go') continue;
  const gallery = works[next];
  next += 1;
  if (!gallery) throw new Error('no work is left to publish');
  const written = await writePublication(backend.store, gallery);
  console.log(written.kind === 'written' ? 'published' : 'duplicate');
}
await backend.close();
