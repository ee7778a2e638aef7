import { expect } from 'chai';
import { execFile, spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openBackend } from '../../src/backend.ts';
import { temporaryDataDir } from '../helpers/server.ts';

const run = promisify(execFile);

/** The maintenance commands, each with its script under scripts/. */
const COMMANDS = ['tokens', 'sources', 'review', 'withdraw', 'backup', 'catalog'];

/** What `npm run COMMAND -- --help` prints. */
async function usageOf(command: string): Promise<string> {
  return (await run(process.execPath, ['--import', 'tsx', `scripts/${command}.ts`, '--help'])).stdout;
}

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

  it('npm run indexer prints its usage for --help and refuses any argument, starting no publisher', async () => {
    const env = { ...process.env, ARCHIVE_DATA_DIR: join(dataDir, 'none'), ARCHIVE_STORE: 'embedded', ARCHIVE_SEARCH: 'embedded' };
    const help = await run(process.execPath, ['--import', 'tsx', 'indexer/main.ts', '--help'], { env });
    expect(help.stdout).to.match(/^usage: npm run indexer /);
    const refused = await run(process.execPath, ['--import', 'tsx', 'indexer/main.ts', '--concurrency', '4'], { env }).catch((error: { code: number; stderr: string; stdout: string }) => error);
    expect(refused).to.include({ code: 1 });
    expect((refused as { stderr: string }).stderr).to.match(/^unknown option --concurrency\nnpm run indexer takes no arguments \(got "4"\)\nusage: /);
    expect((refused as { stdout: string }).stdout, 'no publisher started').to.equal('');
  });

  it('refuses arguments a command cannot run with, naming each and printing the usage, before it opens anything', async () => {
    // A folder without an archive: a command that read its arguments after opening would say so instead.
    const env = { ...process.env, ARCHIVE_DATA_DIR: join(dataDir, 'none'), ARCHIVE_STORE: 'embedded', ARCHIVE_SEARCH: 'embedded' };
    const refused = (args: string[]) => run(process.execPath, ['--import', 'tsx', ...args], { env }).then(() => ({ code: 0, stderr: '' }), (error: { code: number; stderr: string }) => error);
    expect(await refused(['scripts/sources.ts', 'list', '--key', 'x'])).to.deep.include({ code: 1, stderr: 'npm run sources -- list does not take --key\n' + (await usageOf('sources')) });
    expect(await refused(['scripts/tokens.ts', 'revoke', 'a', 'b'])).to.deep.include({ code: 1, stderr: 'npm run tokens -- revoke takes 1 argument, got 2: "b" left over\n' + (await usageOf('tokens')) });
    expect(await refused(['scripts/review.ts', 'aprove', 'sub_x'])).to.deep.include({ code: 1, stderr: 'npm run review has no command "aprove"; it takes list, show, approve or reject\n' + (await usageOf('review')) });
    expect(await refused(['scripts/withdraw.ts', 'rec_x', '--reason', 'why', '--force'])).to.deep.include({ code: 1, stderr: 'unknown option --force\n' + (await usageOf('withdraw')) });
    expect(await refused(['scripts/catalog.ts', 'import'])).to.deep.include({ code: 1, stderr: 'npm run catalog -- import needs 1 argument, got 0\n' + (await usageOf('catalog')) });
    expect(await refused(['scripts/backup.ts', join(dataDir, 'copy'), '--verfy'])).to.deep.include({ code: 1, stderr: 'unknown option --verfy\n' + (await usageOf('backup')) });
    expect(existsSync(join(dataDir, 'none')), 'no archive made').to.equal(false);
    expect(existsSync(join(dataDir, 'copy')), 'no backup written').to.equal(false);
  });

  it('refuses values the commands cannot use: a blank reviewer, a wait that is no number, a compilation date that is no date', async () => {
    await (await openBackend({ databaseFile: join(dataDir, 'archive.sqlite') }, { migrate: true })).close();
    const env = { ...process.env, ARCHIVE_DATA_DIR: dataDir, ARCHIVE_STORE: 'embedded', ARCHIVE_SEARCH: 'embedded' };
    const failing = (args: string[]) => run(process.execPath, ['--import', 'tsx', ...args], { env }).then(() => ({ code: 0, stderr: '' }), (error: { code: number; stderr: string }) => error);
    expect(await failing(['scripts/review.ts', 'reject', 'sub_x', '--note', 'ok', '--by', ' '])).to.include({ code: 1 }).and.have.property('stderr').that.matches(/^--by must name the reviewer/);
    expect(await failing(['scripts/review.ts', 'approve', 'sub_x', '--note', 'ok', '--wait', 'abc'])).to.include({ code: 1 }).and.have.property('stderr').that.matches(/^--wait must be a number of seconds/);
    expect(await failing(['scripts/catalog.ts', 'generate', '--count', '3', '--out', join(dataDir, 'g.json'), '--updated', 'banana'])).to.include({ code: 1 }).and.have.property('stderr').that.matches(/^--updated must be a date/);
    expect(existsSync(join(dataDir, 'g.json')), 'nothing written').to.equal(false);
  });

  it('ends quietly with exit 0 when the reader of its output has gone (piped into head)', async () => {
    await (await openBackend({ databaseFile: join(dataDir, 'archive.sqlite') }, { migrate: true })).close();
    const env = { ...process.env, ARCHIVE_DATA_DIR: dataDir, ARCHIVE_STORE: 'embedded', ARCHIVE_SEARCH: 'embedded' };
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/sources.ts', 'list'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    // The read end closes before the command writes its first line, so every write of it meets EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(stderr).to.not.match(/EPIPE|Error/);
    expect(code).to.equal(0);
  });
});
