/**
 * Online backup of the embedded data folder. The database is copied with `VACUUM INTO`, which
 * reads one snapshot inside a single read transaction: writers in other processes go on (WAL)
 * and never make the copy restart, unlike the page-by-page online backup API. The media files
 * copied are exactly those the snapshot's records reference; media are content-addressed and
 * written before the record that names them and removed only once no record names them (npm run
 * withdraw), so each one is complete on disk once the snapshot can see its record, or missing and
 * named when a withdrawal removed it after the snapshot.
 *
 * The backup is a directory laid out like a data folder (`archive.sqlite`, `media/`) plus
 * `backup.json`, a manifest with the SHA-256 of every file, so restoring is one copy and any
 * archiving tool (tar, rsync, restic) can take it from there.
 */
import Database from 'better-sqlite3';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, open, readFile, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';

export const BACKUP_DATABASE_FILE = 'archive.sqlite';
export const BACKUP_MEDIA_DIR = 'media';
export const BACKUP_MANIFEST_FILE = 'backup.json';
const MANIFEST_FORMAT = 'model-works-archive-backup';
const MANIFEST_VERSION = 1;

/** One copied file, relative to the backup's media folder. */
export interface BackupMediaEntry {
  path: string;
  sha256: string;
  bytes: number;
}

/** What `backup.json` holds. */
export interface BackupManifest {
  format: typeof MANIFEST_FORMAT;
  version: typeof MANIFEST_VERSION;
  createdAt: string;
  /** The store's change number in the snapshot: every write up to it is in the backup, none after. */
  changeNumber: number;
  records: number;
  submissions: number;
  database: { file: typeof BACKUP_DATABASE_FILE; sha256: string; bytes: number };
  media: BackupMediaEntry[];
}

/** The outcome of a backup or of a verification, for the one-line summary. */
export interface BackupSummary {
  directory: string;
  /** The staging directories of stopped backups to the same destination that this run removed (removeStoppedBackups). */
  stoppedRemoved?: string[];
  changeNumber: number;
  records: number;
  submissions: number;
  mediaFiles: number;
  mediaBytes: number;
  databaseBytes: number;
  integrity: 'ok';
}

export class BackupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BackupError';
  }
}

/** A media file a record names, with the SHA-256 the record states for it (thumbnails state none). */
interface ReferencedMedia {
  path: string;
  sha256?: string;
  recordId: string;
}

/** Media paths as the canonical record schema allows them, relative and without `..`; anything else is refused rather than followed. */
const MEDIA_PATH = /^[a-z0-9._-]+(\/[a-z0-9._-]+)*$/i;

function sha256Of(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** SHA-256 and size of a file of any size, read as a stream. */
async function hashFile(path: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

async function writeDurably(path: string, bytes: Buffer | string): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

interface SnapshotContents {
  changeNumber: number;
  records: number;
  submissions: number;
  media: ReferencedMedia[];
}

/** What a backup reads of a stored record: its id and the media it names, as every schema version keeps them in `records.doc`. */
interface RecordMediaDoc {
  id: string;
  media?: { path: string; sha256?: string; thumbnailPath?: string }[];
}

/**
 * Lists what a database copy's records reference; when verifying, first checks the file with
 * PRAGMA integrity_check. It reads only what every schema version has (the `meta` change number,
 * the `submissions` rows, each record's JSON in `records.doc`), with plain queries rather than
 * the store adapter, whose statements name the columns of the current schema: so a database the
 * installed code has not migrated yet (backed up before an upgrade, as docs/operations.md says
 * to) is copied and verified as it is, never migrated.
 */
async function readSnapshot(databaseFile: string, access: 'finish-copy' | 'verify'): Promise<SnapshotContents> {
  const db = new Database(databaseFile, { fileMustExist: true, readonly: access === 'verify' });
  try {
    // A single self-contained file: no -wal beside it. The server turns WAL back on when it opens it.
    if (access === 'finish-copy') db.pragma('journal_mode = DELETE');
    // The integrity check runs once, in the verification that ends every backup.
    const problems = access === 'verify' ? (db.pragma('integrity_check') as { integrity_check: string }[]) : [{ integrity_check: 'ok' }];
    if (problems.length !== 1 || problems[0]?.integrity_check !== 'ok') {
      throw new BackupError(`the database copy fails PRAGMA integrity_check: ${problems.slice(0, 5).map((row) => row.integrity_check).join('; ')}`);
    }
    const changeNumber = Number(db.prepare<[], string>("SELECT value FROM meta WHERE key = 'change_number'").pluck().get() ?? 0);
    const submissions = db.prepare<[], number>('SELECT count(*) FROM submissions').pluck().get() ?? 0;
    const media: ReferencedMedia[] = [];
    let records = 0;
    // One row at a time, so memory holds the media list, not the records.
    for (const doc of db.prepare<[], string>('SELECT doc FROM records ORDER BY id').pluck().iterate()) {
      const record = JSON.parse(doc) as RecordMediaDoc;
      records += 1;
      for (const stored of record.media ?? []) {
        media.push({ path: stored.path, ...(stored.sha256 ? { sha256: stored.sha256 } : {}), recordId: record.id });
        if (stored.thumbnailPath) media.push({ path: stored.thumbnailPath, recordId: record.id });
      }
    }
    return { changeNumber, records, submissions, media };
  } finally {
    db.close();
  }
}

/** One entry per path; a stated SHA-256 wins over none. Refuses paths the archive never writes. */
function distinctMedia(references: readonly ReferencedMedia[]): ReferencedMedia[] {
  const byPath = new Map<string, ReferencedMedia>();
  for (const reference of references) {
    if (!MEDIA_PATH.test(reference.path) || reference.path.split('/').some((segment) => segment === '.' || segment === '..')) {
      throw new BackupError(`record ${reference.recordId} names a media path the archive does not write: ${JSON.stringify(reference.path)}`);
    }
    const known = byPath.get(reference.path);
    if (!known || (!known.sha256 && reference.sha256)) byPath.set(reference.path, reference);
  }
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
}

async function destinationIsFree(directory: string): Promise<boolean> {
  const info = await stat(directory).catch(() => undefined);
  if (!info) return true;
  return info.isDirectory() && (await readdir(directory)).length === 0;
}

/** The name of a backup's staging directory: a hidden sibling of its destination. */
function stagingPrefix(target: string): string {
  return `.${basename(target)}.partial-`;
}

/**
 * Removes the staging directories a stopped backup to `destination` left beside it (a kill, a
 * reboot, an OOM: nothing of the run could clean up), and returns their paths. Each holds a copy
 * of the database, submissions and token hashes among it, and with a daily backup they added up
 * unseen. Two backups to one destination at once are not supported: the second would remove the
 * first's staging.
 */
export function removeStoppedBackups(destination: string): string[] {
  const target = resolve(destination);
  const prefix = stagingPrefix(target);
  let names: string[];
  try {
    names = readdirSync(dirname(target)).filter((name) => name.startsWith(prefix));
  } catch {
    return [];
  }
  const removed = names.map((name) => join(dirname(target), name));
  for (const path of removed) rmSync(path, { recursive: true, force: true });
  return removed;
}

/**
 * Copies the data folder's database and referenced media into `destination`, a new (or empty)
 * directory, while the server may be writing. Works in a sibling staging directory renamed into
 * place at the end, so a directory at `destination` is always a complete, verified backup.
 */
export async function backupDataFolder(source: { databaseFile: string; mediaDir: string }, destination: string, now: () => Date = () => new Date()): Promise<BackupSummary> {
  const target = resolve(destination);
  if (!existsSync(source.databaseFile)) throw new BackupError(`no archive database at ${source.databaseFile}; check ARCHIVE_DATA_DIR`);
  if (!(await destinationIsFree(target))) throw new BackupError(`${target} already exists and is not an empty directory; choose a new backup path`);
  await mkdir(dirname(target), { recursive: true });
  const stopped = removeStoppedBackups(target);
  const staging = join(dirname(target), `${stagingPrefix(target)}${randomBytes(4).toString('hex')}`);
  await mkdir(join(staging, BACKUP_MEDIA_DIR), { recursive: true });
  try {
    const databaseCopy = join(staging, BACKUP_DATABASE_FILE);
    // Read-only: the backup never writes to the live store, not even a checkpoint when it closes.
    const live = new Database(source.databaseFile, { fileMustExist: true, readonly: true });
    try {
      live.pragma('busy_timeout = 10000');
      live.prepare('VACUUM INTO ?').run(databaseCopy);
    } finally {
      live.close();
    }
    const snapshot = await readSnapshot(databaseCopy, 'finish-copy');
    await syncFile(databaseCopy);

    const mediaRoot = resolve(source.mediaDir);
    const copied: BackupMediaEntry[] = [];
    const problems: string[] = [];
    for (const reference of distinctMedia(snapshot.media)) {
      const from = resolve(mediaRoot, reference.path);
      if (!from.startsWith(mediaRoot + sep)) throw new BackupError(`media path escapes the media folder: ${reference.path}`);
      const bytes = await readFile(from).catch(() => undefined);
      if (!bytes) {
        problems.push(`${reference.path} (record ${reference.recordId}) is missing from ${mediaRoot}`);
        continue;
      }
      const sha256 = sha256Of(bytes);
      if (reference.sha256 && sha256 !== reference.sha256) {
        problems.push(`${reference.path} (record ${reference.recordId}) has SHA-256 ${sha256}, the record says ${reference.sha256}`);
        continue;
      }
      const to = join(staging, BACKUP_MEDIA_DIR, reference.path);
      await mkdir(dirname(to), { recursive: true });
      await writeDurably(to, bytes);
      copied.push({ path: reference.path, sha256, bytes: bytes.length });
    }
    if (problems.length) {
      throw new BackupError(`${problems.length} media file(s) referenced by records are missing or damaged in the live data folder, so no backup was written:\n- ${problems.slice(0, 20).join('\n- ')}`);
    }

    const databaseDigest = await hashFile(databaseCopy);
    const manifest: BackupManifest = {
      format: MANIFEST_FORMAT,
      version: MANIFEST_VERSION,
      createdAt: now().toISOString(),
      changeNumber: snapshot.changeNumber,
      records: snapshot.records,
      submissions: snapshot.submissions,
      database: { file: BACKUP_DATABASE_FILE, ...databaseDigest },
      media: copied,
    };
    await writeDurably(join(staging, BACKUP_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    // Verified before it takes its name: a failing check leaves nothing at the destination.
    const summary = await verifyBackup(staging);
    if (existsSync(target)) await rmdir(target);
    await rename(staging, target);
    return { ...summary, directory: target, stoppedRemoved: stopped };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Verifies a backup directory against its manifest: the database's SHA-256 and PRAGMA
 * integrity_check, the record count, every media file's SHA-256, and that every media file a
 * record references is there with the SHA-256 the record states.
 */
export async function verifyBackup(directory: string): Promise<BackupSummary> {
  const root = resolve(directory);
  const manifestText = await readFile(join(root, BACKUP_MANIFEST_FILE), 'utf8').catch(() => undefined);
  if (manifestText === undefined) throw new BackupError(`${root} holds no ${BACKUP_MANIFEST_FILE}; it is not a backup made by npm run backup`);
  const manifest = JSON.parse(manifestText) as BackupManifest;
  if (manifest.format !== MANIFEST_FORMAT || manifest.version !== MANIFEST_VERSION) throw new BackupError(`${BACKUP_MANIFEST_FILE} is not a version ${MANIFEST_VERSION} archive backup manifest`);
  const problems: string[] = [];
  const databaseFile = join(root, BACKUP_DATABASE_FILE);
  const database = await hashFile(databaseFile).catch(() => undefined);
  if (!database) throw new BackupError(`${databaseFile} is missing`);
  if (database.sha256 !== manifest.database.sha256) {
    throw new BackupError(`${BACKUP_DATABASE_FILE} does not match the manifest's SHA-256: it changed after the backup (was the backup folder used as a live data folder? restore copies it first)`);
  }
  const snapshot = await readSnapshot(databaseFile, 'verify');
  if (snapshot.records !== manifest.records) problems.push(`the database holds ${snapshot.records} records, the manifest says ${manifest.records}`);
  const listed = new Map(manifest.media.map((entry) => [entry.path, entry]));
  let mediaBytes = 0;
  for (const entry of manifest.media) {
    const bytes = await readFile(join(root, BACKUP_MEDIA_DIR, entry.path)).catch(() => undefined);
    if (!bytes) problems.push(`media/${entry.path} is missing`);
    else if (sha256Of(bytes) !== entry.sha256) problems.push(`media/${entry.path} does not match its SHA-256`);
    else mediaBytes += bytes.length;
  }
  for (const reference of distinctMedia(snapshot.media)) {
    const entry = listed.get(reference.path);
    if (!entry) problems.push(`media/${reference.path}, referenced by record ${reference.recordId}, is not in the backup`);
    else if (reference.sha256 && entry.sha256 !== reference.sha256) problems.push(`media/${reference.path} has another SHA-256 than record ${reference.recordId} states`);
  }
  if (problems.length) throw new BackupError(`the backup at ${root} fails verification:\n- ${problems.slice(0, 20).join('\n- ')}`);
  return {
    directory: root,
    changeNumber: manifest.changeNumber,
    records: snapshot.records,
    submissions: snapshot.submissions,
    mediaFiles: manifest.media.length,
    mediaBytes,
    databaseBytes: database.bytes,
    integrity: 'ok',
  };
}

/** The one-line summary both commands print. */
export function describeBackup(summary: BackupSummary, verb: string, seconds: number): string {
  const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${verb} ${summary.directory}: ${summary.records} records, ${summary.submissions} submissions, ${summary.mediaFiles} media files (${megabytes(summary.mediaBytes)}), database ${megabytes(summary.databaseBytes)} at change ${summary.changeNumber}, integrity_check ok, every SHA-256 matches (${seconds.toFixed(1)} s)`;
}
