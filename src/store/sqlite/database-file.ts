import { readdirSync, readlinkSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { StoreFileGone } from '../../domain/ports.ts';

/** A file's identity on its disk (device and inode), or undefined when nothing is at the path. */
function identityOf(path: string): string | undefined {
  try {
    const { dev, ino } = statSync(path);
    return `${dev}:${ino}`;
  } catch {
    return undefined;
  }
}

/** Where this process still holds a removed file open (Linux's /proc/PID/fd/N), from which it can be copied back; undefined elsewhere. */
function openDescriptorOf(path: string): string | undefined {
  let descriptors: string[];
  try {
    descriptors = readdirSync('/proc/self/fd');
  } catch {
    return undefined;
  }
  // A descriptor may close while the list is read: its link is skipped, not the search.
  const target = (fd: string): string | undefined => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      return undefined;
    }
  };
  const held = descriptors.find((fd) => target(fd) === `${path} (deleted)`);
  return held === undefined ? undefined : `/proc/${process.pid}/fd/${held}`;
}

/**
 * Watches that the path an open database was opened by still names the file it opened. SQLite
 * goes on reading and writing a file that was removed (or renamed, or replaced) under it, without
 * an error: a server whose archive.sqlite was deleted answered every submission 202 into a file
 * no process could open again, and its next start made a new, empty archive. `check` throws
 * StoreFileGone once the path names nothing or another file; the store calls it where it is
 * pinged and before it writes.
 */
export class DatabaseFileWatch {
  private readonly identity: string | undefined;
  private readonly path: string;

  constructor(path: string) {
    const inMemory = path === '' || path === ':memory:';
    this.path = inMemory ? path : resolve(path);
    this.identity = inMemory ? undefined : identityOf(this.path);
  }

  check(): void {
    if (this.identity === undefined) return;
    const now = identityOf(this.path);
    if (now === this.identity) return;
    const held = openDescriptorOf(this.path);
    const what = now === undefined ? 'was removed' : 'was replaced by another file';
    const rescue = held ? `copy the file this process still holds open (${held}) back to ${this.path} before it stops, or restore a backup` : 'restore it from a backup';
    throw new StoreFileGone(`The archive's database file ${this.path} ${what} while the service ran: what it writes now no later process can read. Stop sending writes; ${rescue} (docs/operations.md); then restart.`);
  }
}
