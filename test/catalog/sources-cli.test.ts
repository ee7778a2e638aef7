import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { checkSourceIdentity } from '../../src/domain/checks/source-identity.ts';
import { SourceTable } from '../../src/domain/sources.ts';
import { makeRecord, makeSubmission } from '../helpers/factories.ts';
import { temporaryDataDir } from '../helpers/server.ts';
import { backendEnvironment, openTestBackend } from '../helpers/backend.ts';
import { processIndexPrefix, searchEnvironment } from '../helpers/server-process.ts';
import { syncOnce } from '../../indexer/search-sync.ts';

const run = promisify(execFile);

describe('npm run sources', function () {
  this.timeout(30_000);

  it('adds a source the publisher then knows, lists it, and removes it only with --force while records name it', async () => {
    const dataDir = temporaryDataDir();
    const env = { ...process.env, ARCHIVE_DATA_DIR: dataDir, ...searchEnvironment(dataDir, {}) };
    const sources = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'scripts/sources.ts', ...args], { env });
    // The backend the script opens: with Meilisearch, under this folder's index prefix.
    const open = async () => (await openTestBackend(dataDir, { indexPrefix: processIndexPrefix(dataDir) })).backend;
    try {
      // A folder without an archive (a mistyped ARCHIVE_DATA_DIR) is refused, not made into a new one.
      const refused = await sources('list').catch((error: { stderr: string; code: number }) => error);
      expect(refused).to.include({ code: 1 });
      expect((refused as { stderr: string }).stderr).to.match(/^no archive database at .*archive\.sqlite; check ARCHIVE_DATA_DIR/);
      await (await open()).close();
      expect((await sources('list')).stdout).to.include('x\tX (Twitter) / X（推特）').and.include('media hosts: pbs.twimg.com').and.include('kept parameters: p');
      // --keep-param '' keeps none.
      const closed = await sources('add', '--key', 'pixelfed', '--host', 'pixelfed.social', '--keep-param', '', '--label-zh', '像素', '--label-en', 'Pixelfed');
      expect(closed.stdout).to.include('kept parameters: none (every query parameter is dropped)');
      expect((await sources('remove', 'pixelfed')).stdout).to.include('pixelfed');
      const added = await sources('add', '--key', 'mastodon', '--host', 'mastodon.social', '--host', 'mastodon.online', '--alias', 'mastodon.online', '--media-host', 'files.mastodon.social', '--handle-rule', '^/@([A-Za-z0-9_]+)/', '--work-rule', '^/@[A-Za-z0-9_]+/\\d+$', '--work-form', 'https://mastodon.social/@{account}/{number}', '--label-zh', '长毛象', '--label-en', 'Mastodon');
      expect(added.stdout).to.match(/added source mastodon/).and.include('work rule: ^/@[A-Za-z0-9_]+/\\d+$ (https://mastodon.social/@{account}/{number})');
      let backend = await open();
      const table = new SourceTable(await backend.sources.listSources());
      const identity = checkSourceIdentity(makeSubmission({ sourceUrl: 'https://mastodon.online/@Demo/111?utm_source=x', author: '@demo' }), table);
      expect(identity).to.deep.include({ source: 'mastodon', canonicalUrl: 'https://mastodon.social/@Demo/111', handle: 'Demo' });
      expect(identity.verdict.outcome).to.equal('pass');
      const profile = checkSourceIdentity(makeSubmission({ sourceUrl: 'https://mastodon.social/@demo', author: '@demo' }), table).verdict;
      expect(profile.outcome, 'the work rule given').to.equal('fail');
      expect(profile.detail).to.include('https://mastodon.social/@{account}/{number}');
      await backend.store.putRecords([makeRecord({ source: 'mastodon', sourceUrl: 'https://mastodon.social/@demo/222' })]);
      // The script counts the source's records in the search index, which a following index holds once synced.
      if (backend.searchFollowsStore) await syncOnce(backend.store, backend.search);
      await backend.close();

      let failure: { stderr?: string } = {};
      await sources('add', '--key', 'Bad Key', '--host', 'www.example.org', '--handle-rule', '(unclosed', '--work-rule', '[unclosed', '--label-en', 'X').catch((error: { stderr?: string }) => (failure = error));
      expect(failure.stderr).to.match(/^--key: /m).and.match(/^--label-zh: must not be blank/m).and.match(/^--host: "www\.example\.org"/m).and.match(/^--handle-rule: is not a regular expression/m).and.match(/^--work-rule: is not a regular expression/m);
      // Another source's host or media host: it would decide which source a URL names, or let previews pass as the copy's own.
      await sources('add', '--key', 'copycat', '--host', 'mastodon.social', '--host', 'files.mastodon.social', '--media-host', 'pbs.twimg.com', '--media-host', 'x.com', '--label-zh', '仿', '--label-en', 'Copycat').catch((error: { stderr?: string }) => (failure = error));
      expect(failure.stderr?.split('\n').slice(0, 4)).to.have.members([
        '--media-host: pbs.twimg.com belongs to x (one of its media hosts)',
        '--media-host: x.com belongs to x (one of its hosts)',
        '--host: mastodon.social belongs to mastodon (one of its hosts)',
        '--host: files.mastodon.social belongs to mastodon (one of its media hosts)',
      ]);
      await sources('remove', 'mastodon').catch((error: { stderr?: string }) => (failure = error));
      expect(failure.stderr).to.match(/1 published record names the source mastodon/);
      expect((await sources('remove', 'mastodon', '--force')).stdout).to.match(/removed source mastodon/);
      backend = await open();
      expect((await backend.sources.listSources()).map((source) => source.key)).not.to.include('mastodon');
      await backend.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('lists the works with more than one record of one kind, each with every record of its work key (model, source key, date, URL), and says how to withdraw one', async () => {
    const dataDir = temporaryDataDir();
    const { backend, settings, destroy } = await openTestBackend(dataDir, { indexPrefix: processIndexPrefix(dataDir) });
    const env = { ...process.env, ARCHIVE_DATA_DIR: dataDir, ...searchEnvironment(dataDir, {}), ...backendEnvironment(settings) };
    const works = async () => (await run(process.execPath, ['--import', 'tsx', 'scripts/sources.ts', 'works'], { env })).stdout;
    try {
      expect(await works()).to.equal('no work has more than one record of one kind\n');
      // Two forms of one video and three of one post, each published as a gallery record before the work key rules made them one work;
      // the video's av form was its model's earliest work, so its timeline record carries the av address too.
      const videos = [makeRecord({ sourceUrl: 'https://bilibili.com/video/BV17x411w7KC', model: 'Kling', date: '2025-02-01' }), makeRecord({ sourceUrl: 'https://bilibili.com/video/av170001', model: 'Kling', date: '2025-01-20' })];
      const videoTimeline = makeRecord({ kind: 'timeline', sourceUrl: 'https://bilibili.com/video/av170001', model: 'Kling', date: '2025-01-20' });
      const posts = ['https://x.com/demo_mira/status/1790000000000000077', 'https://x.com/i/web/status/1790000000000000077', 'https://x.com/someone/status/1790000000000000077'].map((sourceUrl) => makeRecord({ sourceUrl }));
      // A video embedded at youtube-nocookie.com, published while the host was unknown (source web), and its watch address.
      const embedded = { ...makeRecord({ source: 'web', model: 'Veo 2', date: '2025-05-05' }), sourceUrl: 'https://youtube-nocookie.com/embed/dQw4w9WgXcQ' };
      const watched = makeRecord({ sourceUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', model: 'Veo 2', date: '2025-05-06' });
      // A work's gallery and timeline records are one of each kind: not listed.
      const gallery = makeRecord();
      await backend.store.putRecords([...posts, ...videos, videoTimeline, embedded, watched, gallery, makeRecord({ kind: 'timeline', sourceUrl: gallery.sourceUrl })]);
      // By kind, then id; a timeline record marked as its model's.
      const lines = (records: (typeof videos)[number][]) =>
        [...records]
          .sort((a, b) => (a.kind !== b.kind ? (a.kind < b.kind ? -1 : 1) : a.id < b.id ? -1 : 1))
          .map((record) => `  ${record.id}  ${record.kind}  ${record.model}  ${record.source}  ${record.date}  ${record.sourceUrl}${record.kind === 'timeline' ? `  (the timeline record of ${record.model})` : ''}`);
      expect(videos.map((record) => record.source)).to.deep.equal(['bilibili', 'bilibili']);
      expect(await works()).to.equal(
        [
          'gallery doubled: https://bilibili.com/video/BV17x411w7KC (2 gallery records, 1 timeline record)',
          ...lines([...videos, videoTimeline]),
          '',
          'gallery doubled: https://x.com/i/web/status/1790000000000000077 (3 gallery records)',
          ...lines(posts),
          '',
          'gallery doubled: https://youtube.com/watch?v=dQw4w9WgXcQ (2 gallery records)',
          ...lines([embedded, watched]),
          '',
          '3 works have more than one record of one kind (published under two forms of one address before the work key rules made them one work, or one of them by a process of an earlier version still running beside a newer one during an upgrade). npm run withdraw -- ID --reason "why" --only withdraws one record; without --only, every record of its work. A timeline record stays when --only withdraws the gallery record at its URL: withdraw the other form, or both.',
          '',
        ].join('\n'),
      );
      expect(await works()).to.include(`  ${embedded.id}  gallery  Veo 2  web  2025-05-05  https://youtube-nocookie.com/embed/dQw4w9WgXcQ`);
    } finally {
      await destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
