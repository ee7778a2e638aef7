/**
 * The media files a withdrawal is to remove, kept in a file of the data folder from before the
 * withdrawal is committed until the files are gone. A withdrawal interrupted between its commit
 * and the removal (a crash, a kill, a full disk) would otherwise leave a withdrawn work's previews
 * served under /media/ with nothing left to say which they are; the next withdraw command finishes
 * the removal. The list only names candidates: a file is removed only once no record references
 * it, so a list written before a withdrawal that never committed removes nothing.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeDurably } from './media-files.ts';

/** The file's name in the data folder. */
export const WITHDRAWN_MEDIA_FILE = 'withdrawn-media.json';

export class WithdrawnMediaList {
  private readonly file: string;

  constructor(dataDir: string) {
    this.file = join(dataDir, WITHDRAWN_MEDIA_FILE);
  }

  /** The paths (relative to the media folder) still to be removed; none when there is no list. */
  async read(): Promise<string[]> {
    const text = await readFile(this.file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (text === undefined) return [];
    const paths: unknown = JSON.parse(text);
    if (!Array.isArray(paths) || !paths.every((path) => typeof path === 'string')) throw new Error(`${this.file} is not a list of media paths`);
    return paths;
  }

  /** Adds paths to the list, durably, before the withdrawal that makes them candidates commits. */
  async add(paths: readonly string[]): Promise<void> {
    if (paths.length === 0) return;
    const all = [...new Set([...(await this.read()), ...paths])];
    await writeDurably(this.file, Buffer.from(`${JSON.stringify(all)}\n`));
  }

  /** Forgets the list, once every path on it was removed or found referenced. */
  async clear(): Promise<void> {
    await rm(this.file, { force: true });
  }
}
