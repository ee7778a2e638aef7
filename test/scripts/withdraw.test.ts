import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { recordId } from '../../src/domain/ids.ts';
import type { CanonicalRecord, StoredMedia } from '../../src/domain/record.ts';
import { withdrawRecords } from '../../src/domain/withdrawal.ts';
import { WITHDRAWN_MEDIA_FILE, WithdrawnMediaList } from '../../src/media/withdrawn-media.ts';
import { eventually } from '../helpers/backend.ts';
import { makeRecord } from '../helpers/factories.ts';
import { getJson, startTestServer } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';

const run = promisify(execFile);

interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A work's timeline record, as the publisher writes it beside the gallery record. */
function timelineOf(gallery: CanonicalRecord): CanonicalRecord {
  return { ...gallery, kind: 'timeline', id: recordId({ canonicalSourceUrl: gallery.sourceUrl, kind: 'timeline', format: gallery.format, model: gallery.model }) };
}

/** A stored preview with its thumbnail, named as the publisher names them (by content). */
function preview(digit: string): StoredMedia {
  const sha256 = digit.repeat(64);
  return { path: `${digit}${digit}/${sha256}.png`, thumbnailPath: `${digit}${digit}/${sha256}.thumb.webp`, sha256, width: 64, height: 64 };
}

/** Runs the withdraw command against a test server's data folder and backend. */
async function runWithdraw(server: TestServer, ...args: string[]): Promise<CommandResult> {
  const env = { ...process.env, ARCHIVE_DATA_DIR: server.dataDir, ...server.processEnvironment };
  return run(process.execPath, ['--import', 'tsx', 'scripts/withdraw.ts', ...args], { env }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

describe('npm run withdraw', function () {
  this.timeout(60_000);
  const model = 'Takedown-Model';
  // The withdrawn work's own preview, and one the later work shares with it.
  const own = preview('a');
  const shared = preview('b');
  // The model's earliest work (gallery and timeline records, as published), and a later one.
  const taken = makeRecord({ model, date: '2025-01-10', sourceUrl: 'https://github.com/demo-owner/pelican-takedown', title: { zh: '撤下的鹈鹕', en: 'Withdrawnpelican drawing' }, submissionId: 'sub_taken', mediaStatus: 'local-media', media: [own, shared] });
  const later = makeRecord({ model, date: '2025-03-01', sourceUrl: 'https://github.com/demo-owner/heron-stays', title: { zh: '留下的苍鹭', en: 'Stayingheron drawing' }, submissionId: 'sub_later', mediaStatus: 'local-media', media: [shared] });
  const other = makeRecord({ model: 'Other-Model', sourceUrl: 'https://github.com/demo-owner/crane', title: { zh: '鹤', en: 'Movedcrane drawing' } });
  const gone = makeRecord({ model: 'Other-Model', sourceUrl: 'https://github.com/demo-owner/crane-old' });
  let server: TestServer;

  const withdraw = async (...args: string[]): Promise<CommandResult> => runWithdraw(server, ...args);
  const searchTotal = async (text: string): Promise<number> => (await getJson<{ total: number }>(server, `/api/v1/specimens?lang=en&q=${text}`)).body.total;

  before(async () => {
    server = await startTestServer({ records: [taken, timelineOf(taken), later, other, gone] });
    for (const path of [own, shared].flatMap((media) => [media.path, media.thumbnailPath ?? ''])) {
      mkdirSync(dirname(join(server.dataDir, 'media', path)), { recursive: true });
      writeFileSync(join(server.dataDir, 'media', path), `bytes of ${path}`);
    }
    // `gone` gave way to `other`: its id moved.
    await server.backend.store.replaceRecords([], [{ id: gone.id, movedTo: other.id, reason: 'The same work is archived as another record.' }]);
    await server.syncSearch();
  });
  after(async () => server.close());

  it('refuses to run without a reason, and withdraws nothing', async () => {
    const result = await withdraw(taken.id);
    expect(result.code).to.equal(1);
    expect(result.stderr).to.match(/a reason is required/).and.match(/usage: npm run withdraw -- ID/);
    expect((await server.get(`/api/v1/specimens/${taken.id}`)).status).to.equal(200);
    expect((await server.get(`/media/${own.path}`)).status).to.equal(200);
  });

  it('withdraws every record of the named work, passes the timeline on, and says what became of every id named', async () => {
    const reason = 'The author asked for the work to be taken down.';
    const result = await withdraw(taken.id, gone.id, 'svg-unknown-00000000', '--reason', reason);
    expect(result.code, result.stderr).to.equal(1);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).to.equal(`withdrew 2 records (reason: ${reason}):`);
    expect(lines.slice(1, 3).sort()).to.deep.equal(
      [`  ${taken.id}  gallery  ${model}  ${taken.sourceUrl}`, `  ${timelineOf(taken).id}  timeline  ${model}  ${taken.sourceUrl} (for ${taken.id})`].sort(),
    );
    expect(lines.slice(3, 6)).to.deep.equal([
      `timeline of ${model} now starts with ${timelineOf(later).id}`,
      `moved: ${gone.id} → ${other.id}; not withdrawn (withdraw ${other.id}, or pass --follow-moves)`,
      'unknown: svg-unknown-00000000 (never published)',
    ]);
    // The records read are the three left: the later work's two and the other model's.
    expect(lines.slice(6)).to.have.length(1);
    expect(lines[6]).to.match(/^media: removed 2 files, kept 2 another record references \(read 3 records in \d+\.\d s\)$/);
    expect(existsSync(join(server.dataDir, WITHDRAWN_MEDIA_FILE)), 'the list is forgotten once the files are gone').to.equal(false);
    // The withdrawn work's own preview and thumbnail are gone; the one the later work shares stays.
    for (const path of [own.path, own.thumbnailPath ?? '']) {
      expect((await server.get(`/media/${path}`)).status, path).to.equal(404);
      expect(existsSync(join(server.dataDir, 'media', path)), path).to.equal(false);
    }
    for (const path of [shared.path, shared.thumbnailPath ?? '']) {
      expect((await server.get(`/media/${path}`)).status, path).to.equal(200);
      expect(existsSync(join(server.dataDir, 'media', path)), path).to.equal(true);
    }

    for (const id of [taken.id, timelineOf(taken).id]) {
      const answer = await getJson<{ reason: string; sourceUrl: string; workTitle: { en: string } }>(server, `/api/v1/specimens/${id}`);
      expect(answer.status, id).to.equal(410);
      expect(answer.body).to.deep.include({ reason, sourceUrl: taken.sourceUrl });
      expect(answer.body.workTitle.en).to.equal(taken.title.en);
      expect((await server.get(`/en/specimens/${id}/`)).status).to.equal(410);
    }
    expect((await server.get(`/api/v1/specimens/${timelineOf(later).id}`)).status).to.equal(200);
    // The timeline record passed on is new to the catalog today: a client syncing with since finds it.
    const today = new Date().toISOString().slice(0, 10);
    expect((await server.backend.store.getRecord(timelineOf(later).id))?.updated).to.equal(today);
    expect(later.updated).to.not.equal(today);
    await eventually(async () => (await getJson<{ items: { id: string }[] }>(server, `/api/v1/specimens?since=${today}`)).body.items.some((item) => item.id === timelineOf(later).id), 10_000, 'the new timeline record is not listed since today');
    expect((await server.backend.store.catalogState()).updated).to.equal(today);
    expect((await server.get(`/api/v1/specimens/${other.id}`)).status).to.equal(200);
    await eventually(async () => (await searchTotal('Withdrawnpelican')) === 0, 10_000, 'the withdrawn work is still found by search');
    // A following index (Meilisearch) may apply the removal before the new timeline record in one language.
    await eventually(async () => (await searchTotal('Stayingheron')) === 2, 10_000, 'the later work and its new timeline record are not both found by search');
    const exported = await (await server.get('/en/data/catalog.ndjson')).text();
    const exportedIds = exported.trim().split('\n').map((line) => (JSON.parse(line) as { id: string }).id);
    expect(exportedIds).to.include.members([later.id, timelineOf(later).id, other.id]);
    expect(exportedIds).not.to.include.oneOf([taken.id, timelineOf(taken).id]);
  });

  it('withdraws the record an id moved to only when asked, and reports ids withdrawn before', async () => {
    const result = await withdraw(gone.id, taken.id, '--follow-moves', '--reason', 'Asked by the author.');
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout.trim().split('\n')).to.deep.equal([
      'withdrew 1 record (reason: Asked by the author.):',
      `  ${other.id}  gallery  Other-Model  ${other.sourceUrl} (for ${gone.id})`,
      `already withdrawn: ${taken.id} (on ${new Date().toISOString().slice(0, 10)}: The author asked for the work to be taken down.)`,
      `moved: ${gone.id} → ${other.id} (withdrawn above)`,
    ]);
    expect((await server.get(`/api/v1/specimens/${other.id}`)).status).to.equal(410);
  });

  it('withdraws only the named record with --only', async () => {
    const result = await withdraw(timelineOf(later).id, '--only', '--reason', 'Taken off the timeline.');
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.include(`  ${timelineOf(later).id}  timeline`).and.not.include('now starts with');
    // The work keeps its gallery record, whose timeline id is the withdrawn one: the model is left without a timeline record, and the command says so.
    expect(result.stdout).to.include(`timeline of ${later.model}: no record now`);
    expect((await server.get(`/api/v1/specimens/${later.id}`)).status).to.equal(200);
    expect((await server.get(`/api/v1/specimens/${timelineOf(later).id}`)).status).to.equal(410);
  });
});

describe('npm run withdraw, interrupted before the files were removed', function () {
  this.timeout(60_000);
  const mine = preview('c');
  const kept = preview('d');
  const first = makeRecord({ model: 'Resume-Model', sourceUrl: 'https://github.com/demo-owner/first-takedown', mediaStatus: 'local-media', media: [mine, kept] });
  const second = makeRecord({ model: 'Resume-Model', sourceUrl: 'https://github.com/demo-owner/second-takedown', mediaStatus: 'local-media', media: [kept] });
  const third = makeRecord({ model: 'Resume-Model', sourceUrl: 'https://github.com/demo-owner/third-stays' });
  let server: TestServer;
  const list = (): string => join(server.dataDir, WITHDRAWN_MEDIA_FILE);

  before(async () => {
    server = await startTestServer({ records: [first, second, third] });
    for (const path of [mine, kept].flatMap((media) => [media.path, media.thumbnailPath ?? ''])) {
      mkdirSync(dirname(join(server.dataDir, 'media', path)), { recursive: true });
      writeFileSync(join(server.dataDir, 'media', path), `bytes of ${path}`);
    }
  });
  after(async () => server.close());

  it('lists the chosen records\' files before any record is withdrawn', async () => {
    let liveWhenListed: string[] = [];
    let listed: readonly string[] = [];
    const result = await withdrawRecords(server.backend.store, { ids: [first.id], reason: 'Interrupted takedown.', wholeWork: true, followMoves: false }, async (media) => {
      listed = media;
      liveWhenListed = (await server.backend.store.getRecords([first.id])).map((record) => record.id);
      // What the command does here; the run then "stops" before removing the files.
      await new WithdrawnMediaList(server.dataDir).add(media);
    });
    expect(result.kind).to.equal('withdrawn');
    expect(liveWhenListed).to.deep.equal([first.id]);
    expect([...listed].sort()).to.deep.equal([mine.path, mine.thumbnailPath, kept.path, kept.thumbnailPath].sort());
    expect(existsSync(list())).to.equal(true);
    expect((await server.get(`/media/${mine.path}`)).status, 'still served after the commit').to.equal(200);
  });

  it('finishes the removal on the next run, keeping what a record still references, and forgets the list', async () => {
    const result = await runWithdraw(server, second.id, '--reason', 'Another takedown.');
    expect(result.code, result.stderr).to.equal(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).to.include('media: 4 files listed by an interrupted withdrawal, checked again now: removed unless a record references them (withdrawn-media.json)');
    // The first run's 4 files and the second's 2 (the same shared pair): every one of them unreferenced now but the third record's none.
    expect(lines.at(-1)).to.match(/^media: removed 4 files, kept 0 another record references \(read 1 record in \d+\.\d s\)$/);
    for (const path of [mine.path, mine.thumbnailPath ?? '', kept.path, kept.thumbnailPath ?? '']) expect((await server.get(`/media/${path}`)).status, path).to.equal(404);
    expect(existsSync(list())).to.equal(false);
    const again = await runWithdraw(server, second.id, '--reason', 'Another takedown.');
    expect(again.stdout).to.not.include('media:');
  });
});

describe('npm run withdraw, an editorial timeline record', function () {
  this.timeout(60_000);
  const model = 'Editorial-Model';
  // The imported catalog's timeline record (no submission), and a later work that came through ingest.
  const editorial = makeRecord({ model, kind: 'timeline', date: '2023-03-14', sourceUrl: 'https://github.com/demo-owner/editorial-start' });
  const ingested = makeRecord({ model, date: '2025-02-01', sourceUrl: 'https://github.com/demo-owner/ingested-later', submissionId: 'sub_ingested' });
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ records: [editorial, ingested] });
  });
  after(async () => server.close());

  it('says the model has no timeline record now, as for an ingested one', async () => {
    const result = await runWithdraw(server, editorial.id, '--reason', 'The catalog entry was wrong.');
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout.trim().split('\n')).to.deep.equal([
      'withdrew 1 record (reason: The catalog entry was wrong.):',
      `  ${editorial.id}  timeline  ${model}  ${editorial.sourceUrl}`,
      `timeline of ${model}: no record now (the withdrawn timeline record was editorial, and an editorial one is not passed on; a new earliest work gets one when it is published)`,
    ]);
    // On Meilisearch the index follows the store a moment later.
    await eventually(async () => (await getJson<{ total: number }>(server, `/api/v1/timeline?model=${model}`)).body.total === 0, 10_000, 'the withdrawn timeline record is still listed');
    expect((await server.get(`/api/v1/specimens/${ingested.id}`)).status).to.equal(200);
  });

  it('says nothing of the timeline when the model keeps none to lose', async () => {
    const result = await runWithdraw(server, ingested.id, '--reason', 'Taken down.');
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.not.include('timeline of');
  });
});

describe('npm run withdraw, the last work of a model', function () {
  this.timeout(60_000);
  const model = 'Lone-Model';
  const only = makeRecord({ model, date: '2025-04-01', sourceUrl: 'https://github.com/demo-owner/lone-work', submissionId: 'sub_lone' });
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ records: [only, timelineOf(only)] });
  });
  after(async () => server.close());

  it('says plainly that the model has no work left', async () => {
    const result = await runWithdraw(server, only.id, '--reason', 'Taken down.');
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout.trim().split('\n')).to.deep.equal([
      'withdrew 2 records (reason: Taken down.):',
      `  ${only.id}  gallery  ${model}  ${only.sourceUrl}`,
      `  ${timelineOf(only).id}  timeline  ${model}  ${only.sourceUrl} (for ${only.id})`,
      `timeline of ${model}: no record now (the model has no work left in the archive; its next work gets one when it is published)`,
    ]);
  });
});

describe('npm run withdraw --only, one of two forms of a work', function () {
  this.timeout(60_000);
  const model = 'Twin-Model';
  // One video published under two forms before the work key rules made them one work; the av form was the model's earliest, so its timeline record carries the av address.
  const av = makeRecord({ model, date: '2025-01-20', sourceUrl: 'https://bilibili.com/video/av170001', submissionId: 'sub_av' });
  const bv = makeRecord({ model, date: '2025-01-21', sourceUrl: 'https://bilibili.com/video/BV17x411w7KC', submissionId: 'sub_bv' });
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ records: [av, timelineOf(av), bv] });
  });
  after(async () => server.close());

  it('names the timeline record left at the source URL of the gallery record it withdrew', async () => {
    const result = await runWithdraw(server, av.id, '--only', '--reason', 'Archived twice.');
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout.trim().split('\n')).to.deep.equal([
      'withdrew 1 record (reason: Archived twice.):',
      `  ${av.id}  gallery  ${model}  ${av.sourceUrl}`,
      `stays: ${timelineOf(av).id}  timeline  ${model}, the timeline record at the source URL of ${av.id} (--only withdrew the gallery record alone; withdraw it too, or the whole work without --only)`,
    ]);
    expect((await server.get(`/api/v1/specimens/${timelineOf(av).id}`)).status).to.equal(200);
  });

  it('names none when the gallery record withdrawn has no timeline record at its URL', async () => {
    const result = await runWithdraw(server, bv.id, '--only', '--reason', 'Archived twice.');
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.include(`  ${bv.id}  gallery`).and.not.include('stays:');
  });
});

describe('npm run withdraw, a work a timeline id had moved to', function () {
  this.timeout(60_000);
  const model = 'Moved-Model';
  // A repository published at huggingface.co, and again at hf.co while that host was unknown (source web): one work since work key rules 3.
  const repository = makeRecord({ model, date: '2025-03-01', sourceUrl: 'https://huggingface.co/demo-org/pelican-lora', submissionId: 'sub_repo' });
  const short = { ...makeRecord({ model, date: '2025-03-02', source: 'web', submissionId: 'sub_short' }), sourceUrl: 'https://hf.co/demo-org/pelican-lora' };
  // The repository was the model's earliest work until an earlier one was published: its timeline id moved to its gallery record (301).
  const earlier = makeRecord({ model, date: '2025-01-01', sourceUrl: 'https://github.com/demo-owner/earlier-pelican', submissionId: 'sub_earlier' });
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ records: [repository, timelineOf(repository), short, earlier, timelineOf(earlier)] });
    await server.backend.store.replaceRecords([], [{ id: timelineOf(repository).id, movedTo: repository.id, reason: 'The timeline now starts with an earlier work.' }]);
  });
  after(async () => server.close());

  it('names the moved id whose record it withdrew: it answers 410 from now on', async () => {
    expect((await server.get(`/api/v1/specimens/${timelineOf(repository).id}`, { redirect: 'manual' })).status).to.equal(301);
    const result = await runWithdraw(server, short.id, '--reason', 'Taken down.');
    expect(result.code, result.stderr).to.equal(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines.slice(0, 3).sort()).to.deep.equal(['withdrew 2 records (reason: Taken down.):', `  ${short.id}  gallery  ${model}  ${short.sourceUrl}`, `  ${repository.id}  gallery  ${model}  ${repository.sourceUrl} (for ${short.id})`].sort());
    expect(lines.slice(3)).to.deep.equal([`moved id ${timelineOf(repository).id} now answers 410 (it moved to ${repository.id}, withdrawn above)`]);
    expect((await server.get(`/api/v1/specimens/${timelineOf(repository).id}`, { redirect: 'manual' })).status).to.equal(410);
    expect((await server.get(`/api/v1/specimens/${timelineOf(earlier).id}`)).status).to.equal(200);
  });
});
