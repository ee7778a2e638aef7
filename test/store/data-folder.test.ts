import { expect } from 'chai';
import { dataFolderError } from '../../src/data-folder.ts';

describe('errors opening the data folder', () => {
  const folder = { dataDir: '/srv/archive/data', databaseFile: '/srv/archive/data/archive.sqlite', mediaDir: '/srv/archive/data/media' };
  const sqliteError = (code: string): Error => Object.assign(new Error(code === 'SQLITE_FULL' ? 'database or disk is full' : 'disk I/O error'), { code });

  it('says the disk may be full where SQLite said only "disk I/O error" or "database or disk is full"', () => {
    for (const code of ['SQLITE_IOERR_SHMSIZE', 'SQLITE_IOERR_WRITE', 'SQLITE_FULL']) {
      const error = dataFolderError(sqliteError(code), folder) as Error;
      expect(error.message, code).to.equal(`/srv/archive/data/archive.sqlite in ARCHIVE_DATA_DIR=/srv/archive/data cannot be opened or written (${code}): its disk is probably full, or failing. Free space on that disk (df /srv/archive/data), then start again.`);
      expect(error.cause, code).to.be.an('error');
    }
  });

  it('names the variable for a file it cannot write, and leaves other errors as they are', () => {
    expect((dataFolderError(Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' }), folder) as Error).message).to.match(/^\/srv\/archive\/data\/archive\.sqlite in ARCHIVE_DATA_DIR=\/srv\/archive\/data cannot be written \(SQLITE_READONLY\)/);
    const other = Object.assign(new Error('malformed'), { code: 'SQLITE_CORRUPT' });
    expect(dataFolderError(other, folder)).to.equal(other);
  });
});
