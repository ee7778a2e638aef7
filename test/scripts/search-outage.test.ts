/**
 * The maintenance commands that never search, run on the Meilisearch deployment while Meilisearch
 * cannot be reached (nothing listens at MEILI_URL) or does not answer (a server that accepts and
 * never replies, as a Meilisearch stopped with SIGSTOP does): each opens the store alone and does
 * its work. A withdrawal made meanwhile reaches the index through the index sync once Meilisearch
 * answers (checked against a real Meilisearch when MEILI_URL is set).
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { syncOnce } from '../../indexer/search-sync.ts';
import { openBackend } from '../../src/backend.ts';
import { makeRecord } from '../helpers/factories.ts';
import { closedAddress, dropMeiliIndexes, sharedMeili, uniqueMeiliOptions } from '../helpers/meili.ts';
import { temporaryDataDir } from '../helpers/server.ts';

const run = promisify(execFile);

interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

describe('the commands that never search, while Meilisearch is down', function () {
  this.timeout(120_000);
  const kept = makeRecord({ sourceUrl: 'https://github.com/outage-owner/kept', title: { zh: '留下', en: 'Keptheron drawing' } });
  const taken = makeRecord({ sourceUrl: 'https://github.com/outage-owner/taken', title: { zh: '撤下', en: 'Takenheron drawing' } });
  let dataDir = '';
  let databaseFile = '';
  let hung: Server;
  const sockets = new Set<Socket>();

  before(async () => {
    dataDir = temporaryDataDir();
    databaseFile = join(dataDir, 'archive.sqlite');
    const backend = await openBackend({ databaseFile }, { migrate: true });
    await backend.store.putRecords([kept, taken]);
    await backend.close();
    // Accepts connections and never answers: Meilisearch hung (kill -STOP), or a firewall that drops replies.
    hung = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  });

  after(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => hung.close(() => resolve()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Runs a script on the data folder with Meilisearch at `meiliUrl`. */
  async function command(meiliUrl: string, script: string, ...args: string[]): Promise<CommandResult> {
    const env = { ...process.env, ARCHIVE_DATA_DIR: dataDir, ARCHIVE_SEARCH: 'meili', MEILI_URL: meiliUrl, MEILI_API_KEY: 'a-key-it-never-needs', MEILI_INDEX_PREFIX: 'outage_' };
    const started = performance.now();
    return run(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args], { env, timeout: 60_000 }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr, ms: performance.now() - started }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr, ms: performance.now() - started }),
    );
  }

  for (const outage of ['nothing listens', 'it accepts and never answers'] as const) {
    it(`creates, lists and revokes tokens, lists submissions and sources and exports the catalog when ${outage}`, async () => {
      const url = outage === 'nothing listens' ? await closedAddress() : `http://127.0.0.1:${(hung.address() as AddressInfo).port}`;
      const name = outage === 'nothing listens' ? 'outage-bot' : 'hung-bot';
      const created = await command(url, 'tokens', 'create', '--name', name, '--scope', 'ingest');
      expect(created.code, created.stderr).to.equal(0);
      expect(created.stdout.trim().split('\n').at(-1)).to.match(/^mwa_/);
      const listed = await command(url, 'tokens', 'list');
      expect(listed.code, listed.stderr).to.equal(0);
      expect(listed.stdout).to.match(new RegExp(`${name}\tingest\tcreated .*\tactive`));
      // A request to a server that never answers waits 30 s before it fails: none is made.
      expect(listed.ms, 'no request waited for Meilisearch').to.be.below(20_000);
      const revoked = await command(url, 'tokens', 'revoke', name);
      expect([revoked.code, revoked.stdout.trim()], revoked.stderr).to.deep.equal([0, `revoked token "${name}"`]);
      const reviewed = await command(url, 'review', 'list');
      expect([reviewed.code, reviewed.stdout.trim()], reviewed.stderr).to.deep.equal([0, 'no submissions in needs_review']);
      const sources = await command(url, 'sources', 'list');
      expect(sources.code, sources.stderr).to.equal(0);
      expect(sources.stdout).to.include('github');
      const exported = await command(url, 'catalog', 'export', join(dataDir, `export-${name}.json`));
      expect(exported.code, exported.stderr).to.equal(0);
      expect(exported.stdout).to.match(/^exported 2 records/);
    });
  }

  it('withdraws a work when nothing listens at MEILI_URL; the index sync takes it out of the index once Meilisearch answers', async () => {
    const result = await command(await closedAddress(), 'withdraw', taken.id, '--reason', 'The author asked for the work to be removed.');
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout.split('\n')[0]).to.equal('withdrew 1 record (reason: The author asked for the work to be removed.):');
    const backend = await openBackend({ databaseFile }, { migrate: false });
    try {
      expect(await backend.store.getRecord(taken.id)).to.equal(undefined);
      expect((await backend.store.recordFate(taken.id))?.status).to.equal('withdrawn');
      // What the index sync reads on the Meilisearch deployment: the removal is in the store's change feed.
      expect((await backend.store.removalsSince(0, 100)).map((removal) => removal.id)).to.include(taken.id);
    } finally {
      await backend.close();
    }
    const shared = sharedMeili();
    if (!shared) return;
    const options = uniqueMeiliOptions(shared, 'outage');
    const followed = await openBackend({ databaseFile, search: { kind: 'meili', ...options } }, { migrate: false });
    try {
      await syncOnce(followed.store, followed.search);
      const found = async (text: string): Promise<number> => (await followed.search.search({ lang: 'en', text, filters: {}, order: 'relevance', offset: 0, limit: 10 })).total;
      expect([await found('Keptheron'), await found('Takenheron')]).to.deep.equal([1, 0]);
    } finally {
      await followed.close();
      await dropMeiliIndexes(options);
    }
  });
});
