import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { temporaryDataDir } from '../helpers/server.ts';

const run = promisify(execFile);

/** The maintenance commands, each with its script under scripts/. */
const COMMANDS = ['tokens', 'sources', 'review', 'withdraw', 'backup', 'catalog'];

describe('the maintenance commands, on the command line', function () {
  this.timeout(60_000);
  let dataDir: string;
  beforeEach(() => {
    dataDir = temporaryDataDir();
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  for (const command of COMMANDS) {
    it(`npm run ${command} -- --help prints its usage and exits 0, opening nothing`, async () => {
      // A folder without an archive: the commands that need one would refuse before printing anything else.
      const env = { ...process.env, ARCHIVE_DATA_DIR: join(dataDir, 'none'), ARCHIVE_STORE: 'embedded', ARCHIVE_SEARCH: 'embedded' };
      const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', `scripts/${command}.ts`, '--help'], { env });
      expect(stdout).to.match(new RegExp(`^usage: npm run ${command} -- `));
      expect(stderr).to.equal('');
      const short = await run(process.execPath, ['--import', 'tsx', `scripts/${command}.ts`, '-h'], { env });
      expect(short.stdout).to.equal(stdout);
      expect(existsSync(join(dataDir, 'none'))).to.equal(false);
    });
  }

});
