import { expect } from 'chai';
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openBackend } from '../../src/backend.ts';
import type { Backend } from '../../src/backend.ts';
import { loadDemoIfEmpty } from '../../src/demo/seed.ts';
import { createLogger } from '../../src/logger.ts';
import { storePreview } from '../../src/media/media-files.ts';
import type { StoredMedia, StoredRecord } from '../../src/domain/record.ts';
import { workKey } from '../../src/domain/sources.ts';
import { makeRecord } from '../helpers/factories.ts';
import { lineDrawingPng } from '../helpers/image-server.ts';
import { searchEnvironment, startServerProcess } from '../helpers/server-process.ts';
import { temporaryDataDir } from '../helpers/server.ts';

interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm run backup -- …` (the script itself, without npm) and collects its output. */
function runBackup(args: string[], env: Record<string, string>): Promise<CommandResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', ...args], { env: { ...process.env, ...(env.ARCHIVE_DATA_DIR ? searchEnvironment(env.ARCHIVE_DATA_DIR, {}) : {}), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

interface ApiRecord {
  id: string;
  media: { url: string }[];
  thumbnail: string | null;
}

async function listEveryRecord(url: string): Promise<{ total: number; items: ApiRecord[] }> {
  const items: ApiRecord[] = [];
  let total = 0;
  for (let offset = 0; offset === 0 || offset < total; offset += 50) {
    const page = (await (await fetch(`${url}/api/v1/specimens?lang=en&limit=50&offset=${offset}`)).json()) as { total: number; items: ApiRecord[] };
    total = page.total;
    items.push(...page.items);
  }
  return { total, items };
}

async function collectWithMedia(backend: Backend): Promise<StoredRecord[]> {
  const found: StoredRecord[] = [];
  for await (const record of backend.store.streamRecords()) if (record.media.length) found.push(record);
  return found;
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** The numbered works the writer loop publishes: a record whose preview is stored first, as the publisher does. */
const WRITER_SOURCE = 'https://github.com/backup-writer/work-';

describe('npm run backup: an online copy of the embedded store and its media', function () {
  this.timeout(60_000);

  let sourceDir: string;
  let backend: Backend;
  const cleanup: string[] = [];

  beforeEach(async () => {
    sourceDir = temporaryDataDir();
    backend = await openBackend({ databaseFile: join(sourceDir, 'archive.sqlite') }, { migrate: true });
    await loadDemoIfEmpty(backend.store, join(sourceDir, 'media'), createLogger('silent'));
    cleanup.push(sourceDir);
  });

  afterEach(async () => {
    await backend.close();
    for (const folder of cleanup.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it('copies a consistent snapshot while records are being written, which restores into a working server', async () => {
    const mediaDir = join(sourceDir, 'media');
    let written = 0;
    let backupRunning = true;
    const writer = (async () => {
      // Sequential writes, each a stored preview then its record: the snapshot must hold exactly the first k of them.
      while ((backupRunning || written < 5) && written < 2000) {
        const number = written + 1;
        const media: StoredMedia = await storePreview(mediaDir, await lineDrawingPng(5000 + number), 'png');
        await backend.store.putRecords([makeRecord({ sourceUrl: `${WRITER_SOURCE}${number}`, mediaStatus: 'local-media', media: [media], title: { zh: `备份作品${number}`, en: `Backup work ${number}` } })]);
        written = number;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    while (written < 5) await new Promise((resolve) => setTimeout(resolve, 10));

    const backupDir = join(temporaryDataDir(), 'backup');
    cleanup.push(join(backupDir, '..'));
    const result = await runBackup([backupDir], { ARCHIVE_DATA_DIR: sourceDir });
    backupRunning = false;
    await writer;
    expect(result.code, result.stderr).to.equal(0);
    const summary = /^backup written to .+: (\d+) records, 0 submissions, (\d+) media files .* integrity_check ok, every SHA-256 matches/.exec(result.stdout.trim());
    expect(summary, result.stdout).to.not.equal(null);
    expect(result.stdout.trim().split('\n')).to.have.length(1);

    // The copy is one snapshot: the demo catalog and a prefix 1..k of the writer's records, k at least 5, and writes went on after it.
    const copy = new Database(join(backupDir, 'archive.sqlite'), { readonly: true });
    const integrity = copy.pragma('integrity_check', { simple: true });
    const copiedSources = copy.prepare<[], { source_url: string }>(`SELECT source_url FROM records WHERE source_url LIKE '${WRITER_SOURCE}%'`).all();
    const copiedRows = copy.prepare<[], { id: string; doc: string }>('SELECT id, doc FROM records').all();
    copy.close();
    const copiedIds = new Set(copiedRows.map((row) => row.id));
    const referencedMedia = new Set(
      copiedRows.flatMap((row) => (JSON.parse(row.doc) as { media: StoredMedia[] }).media.flatMap((media) => [media.path, ...(media.thumbnailPath ? [media.thumbnailPath] : [])])),
    );
    expect(integrity).to.equal('ok');
    const numbers = copiedSources.map((row) => Number(row.source_url.slice(WRITER_SOURCE.length))).sort((a, b) => a - b);
    const snapshotWrites = numbers.length;
    expect(snapshotWrites).to.be.at.least(5);
    expect(numbers).to.deep.equal(Array.from({ length: snapshotWrites }, (_, i) => i + 1));
    expect(written, 'the writer kept writing while the backup ran').to.be.greaterThan(snapshotWrites);
    expect(copiedIds.size).to.equal(44 + snapshotWrites);
    expect(Number(summary?.[1])).to.equal(copiedIds.size);

    // Exactly the media the snapshot references were copied; the next writer record's preview, already on disk, was not.
    expect(Number(summary?.[2])).to.equal(referencedMedia.size);
    const [nextRecord] = await backend.store.findByWorkKey(workKey(`${WRITER_SOURCE}${snapshotWrites + 1}`));
    const nextPreview = nextRecord?.media[0]?.path ?? '';
    expect(existsSync(join(mediaDir, nextPreview))).to.equal(true);
    expect(existsSync(join(backupDir, 'media', nextPreview))).to.equal(false);
    const verified = await runBackup(['--verify', backupDir], {});
    expect(verified.code, verified.stderr).to.equal(0);
    expect(verified.stdout).to.match(/^verified backup .+: \d+ records/);

    // Restore as documented: copy the backup folder into a fresh data folder, start the server on it.
    const restoredDir = temporaryDataDir();
    cleanup.push(restoredDir);
    cpSync(backupDir, restoredDir, { recursive: true });
    const server = await startServerProcess(restoredDir);
    try {
      const { total, items } = await listEveryRecord(server.url);
      expect(total).to.equal(copiedIds.size);
      expect(new Set(items.map((item) => item.id))).to.deep.equal(copiedIds);
      const single = await fetch(`${server.url}/api/v1/specimens/${items[0]?.id ?? ''}?lang=en`);
      expect(single.status).to.equal(200);
      let mediaChecked = 0;
      for (const item of items) {
        for (const media of item.media) {
          const response = await fetch(media.url);
          expect(response.status, media.url).to.equal(200);
          const path = new URL(media.url).pathname;
          // Content-addressed: the file name is the SHA-256 of the bytes served.
          expect(sha256(Buffer.from(await response.arrayBuffer())), path).to.equal(/\/([0-9a-f]{64})\.\w+$/.exec(path)?.[1]);
          mediaChecked += 1;
        }
        if (item.thumbnail) expect((await fetch(item.thumbnail)).status, item.thumbnail).to.equal(200);
      }
      expect(mediaChecked).to.be.at.least(snapshotWrites);
      const search = (await (await fetch(`${server.url}/api/v1/specimens?q=backup&lang=en&limit=1`)).json()) as { total: number };
      expect(search.total).to.equal(snapshotWrites);
    } finally {
      await server.stop('SIGTERM');
    }
  });

  it('finds a damaged media file when a backup is verified again', async () => {
    const backupDir = join(temporaryDataDir(), 'backup');
    cleanup.push(join(backupDir, '..'));
    expect((await runBackup([backupDir], { ARCHIVE_DATA_DIR: sourceDir })).code).to.equal(0);
    const manifest = JSON.parse(readFileSync(join(backupDir, 'backup.json'), 'utf8')) as { media: { path: string }[] };
    const damaged = manifest.media[0]?.path ?? '';
    writeFileSync(join(backupDir, 'media', damaged), 'not the image');
    const verified = await runBackup(['--verify', backupDir], {});
    expect(verified.code).to.equal(1);
    expect(verified.stderr).to.include(`media/${damaged} does not match its SHA-256`);
  });

  it('removes what stopped backups to the same destination left (their staging copies), and says so', async () => {
    const parent = temporaryDataDir();
    cleanup.push(parent);
    // As a backup killed part-way leaves it: a hidden staging sibling holding a copy of the database.
    const stopped = join(parent, '.backup.partial-0badf00d');
    mkdirSync(join(stopped, 'media'), { recursive: true });
    writeFileSync(join(stopped, 'archive.sqlite'), 'a copy of the database, tokens and all');
    writeFileSync(join(parent, '.other.partial-12345678'), 'another destination\'s, left alone');
    const result = await runBackup([join(parent, 'backup')], { ARCHIVE_DATA_DIR: sourceDir });
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.include(`removed what stopped backups to ${join(parent, 'backup')} had left: ${stopped}\n`);
    expect(readdirSync(parent).sort()).to.deep.equal(['.other.partial-12345678', 'backup']);
  });

  it('writes nothing when a media file a record references is missing from the live folder, and says which', async () => {
    const [withMedia] = await collectWithMedia(backend);
    const missing = withMedia?.media[0]?.path ?? '';
    rmSync(join(sourceDir, 'media', missing));
    const parent = temporaryDataDir();
    cleanup.push(parent);
    const result = await runBackup([join(parent, 'backup')], { ARCHIVE_DATA_DIR: sourceDir });
    expect(result.code).to.equal(1);
    expect(result.stderr).to.include(`${missing} (record ${withMedia?.id ?? ''}) is missing`);
    expect(readdirSync(parent), 'no backup and no staging folder left behind').to.deep.equal([]);
  });

  it('backs up and verifies a database of an older schema as it is, without migrating the live file', async () => {
    // A data folder the installed code has not upgraded yet (records without work_key), one record naming a preview.
    const oldDir = temporaryDataDir();
    cleanup.push(oldDir);
    const liveFile = join(oldDir, 'archive.sqlite');
    cpSync(new URL('../fixtures/archive-2026-11-23.sqlite', import.meta.url).pathname, liveFile);
    const preview = Buffer.from('bytes of an older preview');
    const path = `ab/${sha256(preview)}.png`;
    mkdirSync(join(oldDir, 'media', 'ab'), { recursive: true });
    writeFileSync(join(oldDir, 'media', path), preview);
    const live = new Database(liveFile);
    const row = live.prepare<[], { id: string; doc: string }>('SELECT id, doc FROM records ORDER BY id LIMIT 1').get();
    if (!row) throw new Error('the fixture holds no record');
    live.prepare('UPDATE records SET doc = ? WHERE id = ?').run(JSON.stringify({ ...(JSON.parse(row.doc) as object), media: [{ path, sha256: sha256(preview), width: 8, height: 8 }] }), row.id);
    const columnsOf = (file: string): string[] => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare<[], { name: string }>('SELECT name FROM pragma_table_info(\'records\')').all().map((column) => column.name);
      } finally {
        db.close();
      }
    };
    live.close();
    const columnsBefore = columnsOf(liveFile);
    expect(columnsBefore).to.not.include('work_key');

    const backupDir = join(temporaryDataDir(), 'backup');
    cleanup.push(join(backupDir, '..'));
    const result = await runBackup([backupDir], { ARCHIVE_DATA_DIR: oldDir });
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.match(/^backup written to .+: 3 records, 1 submissions?, 1 media files? /);
    expect(readFileSync(join(backupDir, 'media', path))).to.deep.equal(preview);
    expect(columnsOf(liveFile)).to.deep.equal(columnsBefore);
    expect(columnsOf(join(backupDir, 'archive.sqlite'))).to.deep.equal(columnsBefore);
    const verified = await runBackup(['--verify', backupDir], {});
    expect(verified.code, verified.stderr).to.equal(0);
    expect(verified.stdout).to.match(/^verified backup .+: 3 records/);
  });

  it('refuses a destination that already holds files, and a store that is not embedded, writing nothing', async () => {
    const occupied = temporaryDataDir();
    cleanup.push(occupied);
    writeFileSync(join(occupied, 'notes.txt'), 'keep me');
    const refusedFolder = await runBackup([occupied], { ARCHIVE_DATA_DIR: sourceDir });
    expect(refusedFolder.code).to.equal(1);
    expect(refusedFolder.stderr).to.include('not an empty directory');

    const target = join(occupied, 'mongo-backup');
    const refusedStore = await runBackup([target], { ARCHIVE_DATA_DIR: sourceDir, ARCHIVE_STORE: 'mongo' });
    expect(refusedStore.code).to.equal(1);
    expect(refusedStore.stderr).to.include('docs/deploy.md');
    expect(existsSync(target)).to.equal(false);
  });
});
