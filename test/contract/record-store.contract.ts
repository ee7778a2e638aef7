import { expect } from 'chai';
import { CHANGES_READ_IN_WRITE } from '../../src/domain/ports.ts';
import type { RecordStore, SourceStore, WorkRecords } from '../../src/domain/ports.ts';
import { resolveRecordId } from '../../src/domain/record-fates.ts';
import { BUILT_IN_SOURCES, workKey } from '../../src/domain/sources.ts';
import { galleryIdOf, planPublication } from '../../src/domain/ingest/timeline.ts';
import type { CanonicalRecord } from '../../src/domain/record.ts';
import { makeRecord } from '../helpers/factories.ts';

/** Opens a fresh, empty store (with the source table it keeps) and a function that disposes of it. */
export type StoreFactory = () => Promise<{ store: RecordStore; sources: SourceStore; dispose: () => Promise<void> }>;

/** The behaviour every RecordStore adapter must show. */
export function recordStoreContract(name: string, open: StoreFactory): void {
  describe(`RecordStore contract: ${name}`, () => {
    let store: RecordStore;
    let sources: SourceStore;
    let dispose: () => Promise<void>;
    beforeEach(async () => {
      ({ store, sources, dispose } = await open());
    });
    afterEach(async () => dispose());

    it('gives back exactly the record it was given, with a change number', async () => {
      const record = makeRecord({ prompt: 'Draw a pelican', media: [{ path: 'ab/ab.png', width: 10, height: 20, sha256: 'a'.repeat(64), thumbnailPath: 'ab/ab.thumb.webp' }] });
      await store.putRecords([record]);
      const stored = await store.getRecord(record.id);
      expect(stored).to.deep.include(record);
      expect(stored?.seq).to.be.a('number');
      expect(await store.getRecord('svg-unknown-00000000')).to.equal(undefined);
    });

    it('replaces by id and moves the record forward in the change feed', async () => {
      const first = makeRecord();
      const second = makeRecord();
      await store.putRecords([first, second]);
      const before = (await store.catalogState()).changeNumber;
      await store.putRecords([{ ...first, notes: { zh: '新的', en: 'new' } }]);
      const state = await store.catalogState();
      expect(state.total).to.equal(2);
      expect(state.changeNumber).to.be.above(before);
      expect((await store.getRecord(first.id))?.notes.en).to.equal('new');
      const changes = await store.changesSince(before, 10);
      expect(changes.map((record) => record.id)).to.deep.equal([first.id]);
      const all = await store.changesSince(0, 10);
      expect(all.map((record) => record.id)).to.deep.equal([second.id, first.id]);
    });

    it('writes a new mark with every change number, so that another store at the same number is told apart', async () => {
      const stamps = [(await store.catalogState()).changeStamp];
      const record = makeRecord();
      const [source] = BUILT_IN_SOURCES;
      if (!source) throw new Error('no built-in source');
      const steps = [
        () => store.putRecords([record]),
        () => store.setCatalogUpdated('2026-11-26'),
        () => sources.putSource({ ...source, label: { zh: '改过的名字', en: 'A changed label' } }),
        () => store.deleteRecords([record.id]),
      ];
      for (const step of steps) {
        await step();
        stamps.push((await store.catalogState()).changeStamp);
      }
      expect(stamps.slice(1).every((stamp) => /^[0-9a-f]{12}$/.test(stamp)), stamps.join(' ')).to.equal(true);
      expect(new Set(stamps).size, stamps.join(' ')).to.equal(stamps.length);
      // Two databases reaching the same change number (a backup restored and written to, another archive) under other marks.
      const others = [await open(), await open()];
      try {
        for (const other of others) await other.store.putRecords([record]);
        const [first, second] = await Promise.all(others.map((other) => other.store.catalogState()));
        expect(first?.changeNumber).to.equal(second?.changeNumber);
        expect(first?.changeStamp).to.not.equal(second?.changeStamp);
      } finally {
        for (const other of others) await other.dispose();
      }
    });

    it('lists the records of a kind written last, newest first', async () => {
      const [older, timeline, newer] = [makeRecord(), makeRecord({ kind: 'timeline' }), makeRecord()];
      await store.putRecords([older]);
      await store.putRecords([timeline, newer]);
      const latest = await store.latestRecords('gallery', 2);
      expect(latest.map((record) => record.id)).to.deep.equal([newer.id, older.id]);
      expect(latest[0]?.seq).to.be.above(latest[1]?.seq ?? Infinity);
      expect((await store.latestRecords('timeline', 5)).map((record) => record.id)).to.include(timeline.id);
      await store.putRecords([older]);
      expect((await store.latestRecords('gallery', 1)).map((record) => record.id)).to.deep.equal([older.id]);
    });

    it('returns several records in the order asked, leaving out unknown ids', async () => {
      const records = [makeRecord(), makeRecord(), makeRecord()];
      await store.putRecords(records);
      const found = await store.getRecords([records[2]?.id ?? '', 'svg-missing-00000000', records[0]?.id ?? '']);
      expect(found.map((record) => record.id)).to.deep.equal([records[2]?.id, records[0]?.id]);
    });

    it('streams every record in id order across batch boundaries', async () => {
      const records = Array.from({ length: 23 }, () => makeRecord());
      await store.putRecords(records);
      const streamed: string[] = [];
      for await (const record of store.streamRecords({ batchSize: 5 })) streamed.push(record.id);
      expect(streamed).to.deep.equal(records.map((record) => record.id).sort());
    });

    it('decides a model label\'s records inside the write, so works of one model published at once give it one timeline record, the earliest', async () => {
      const model = `Race-Model-${Math.random().toString(36).slice(2, 8)}`;
      const publish = (gallery: CanonicalRecord) => store.changeModelRecords(model, (ofModel) => planPublication(gallery, ofModel));
      const first = makeRecord({ model, date: '2025-06-01', submissionId: 'sub_race_first' });
      expect((await publish(first)).put.map((record) => record.kind)).to.deep.equal(['gallery', 'timeline']);
      // Each decision reads what the writes before it committed: a later work gets no timeline record, an earlier one takes it over.
      const later = makeRecord({ model, date: '2025-07-01', submissionId: 'sub_race_later' });
      expect((await publish(later)).put.map((record) => record.id)).to.deep.equal([later.id]);
      const works = Array.from({ length: 8 }, (_, index) => makeRecord({ model, date: `2025-0${5 - (index % 4)}-1${index}`, submissionId: `sub_race_${index}` }));
      const written = await Promise.all(works.map(publish));
      expect(written.every((changes, index) => changes.put[0]?.id === works[index]?.id)).to.equal(true);
      const ofModel = await store.findByModel(model);
      const timeline = ofModel.filter((record) => record.kind === 'timeline');
      expect(timeline, 'timeline records of the model').to.have.length(1);
      const [earliest] = [first, later, ...works].sort((a, b) => (a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date < b.date ? -1 : 1));
      expect(galleryIdOf(timeline[0] as CanonicalRecord)).to.equal(earliest?.id);
      expect(ofModel.filter((record) => record.kind === 'gallery')).to.have.length(10);
      // The timeline records that gave way moved to their works' gallery records.
      const fate = await store.recordFate(planPublication(first, []).put[1]?.id ?? '');
      expect(fate).to.include({ status: 'moved', movedTo: first.id });
    });

    it('decides a work published under two model labels at once inside the write: the second finds the first\'s record of the work', async () => {
      const suffix = Math.random().toString(36).slice(2, 8);
      const sourceUrl = `https://github.com/labels-${suffix}/one-work`;
      const publish = (gallery: CanonicalRecord) =>
        store.changeModelRecords(gallery.model, (ofModel, work) => (work.ofWork.length ? { put: [], retire: [] } : planPublication(gallery, ofModel)), { workKey: workKey(sourceUrl) });
      const sides = ['A', 'B'].map((label) => makeRecord({ model: `Label-${label}-${suffix}`, sourceUrl, submissionId: `sub_label_${label}_${suffix}` }));
      const written = await Promise.all(sides.map(publish));
      expect(written.map((changes) => changes.put.length).sort(), 'one wrote its gallery and timeline records, the other nothing').to.deep.equal([0, 2]);
      expect((await store.findByWorkKey(workKey(sourceUrl))).map((record) => record.model).filter((model, index, all) => all.indexOf(model) === index)).to.have.length(1);
      // Without a reading, the records of the work are not read.
      let seen: number | undefined;
      await store.changeModelRecords(`Label-A-${suffix}`, (_ofModel, work) => ((seen = work.ofWork.length), { put: [], retire: [] }));
      expect(seen).to.equal(0);
    });

    it('reads inside the write the records written after a change number, oldest first, and says when there were more than it reads', async () => {
      const { changeNumber } = await store.catalogState();
      const written = [makeRecord(), makeRecord()];
      await store.putRecords(written);
      const model = `Changed-After-${Math.random().toString(36).slice(2, 8)}`;
      const readAfter = async (after: number): Promise<WorkRecords> => {
        let work: WorkRecords | undefined;
        await store.changeModelRecords(model, (_ofModel, read) => ((work = read), { put: [], retire: [] }), { workKey: workKey('https://github.com/nobody/nothing'), changedAfter: after });
        if (!work) throw new Error('decide was not called');
        return work;
      };
      const since = await readAfter(changeNumber);
      expect(since.changed.map((record) => record.id)).to.deep.equal(written.map((record) => record.id));
      expect(since.changedComplete).to.equal(true);
      await store.putRecords(Array.from({ length: CHANGES_READ_IN_WRITE }, () => makeRecord()));
      const behind = await readAfter(changeNumber);
      expect(behind.changed).to.have.length(CHANGES_READ_IN_WRITE);
      expect(behind.changed.slice(0, 2).map((record) => record.id)).to.deep.equal(written.map((record) => record.id));
      expect(behind.changedComplete).to.equal(false);
    });

    it('streams from an id on, and names the first id of every page, so a page is read without the ones before it', async () => {
      expect(await store.pageStarts(5)).to.deep.equal([]);
      const records = Array.from({ length: 23 }, () => makeRecord());
      await store.putRecords(records);
      const ids = records.map((record) => record.id).sort();
      const starts = await store.pageStarts(5);
      expect(starts).to.deep.equal([ids[0], ids[5], ids[10], ids[15], ids[20]]);
      expect(await store.pageStarts(23)).to.deep.equal([ids[0]]);
      expect(await store.pageStarts(1)).to.deep.equal(ids);
      const from = async (start: string, batchSize: number): Promise<string[]> => {
        const streamed: string[] = [];
        for await (const record of store.streamRecords({ from: start, batchSize })) streamed.push(record.id);
        return streamed;
      };
      expect(await from(ids[10] ?? '', 4)).to.deep.equal(ids.slice(10));
      expect(await from(ids[22] ?? '', 4)).to.deep.equal(ids.slice(22));
      // An id between two records starts at the next one; an id after the last yields nothing.
      expect(await from(`${ids[10] ?? ''}-`, 3)).to.deep.equal(ids.slice(11));
      expect(await from('zzzz', 3)).to.deep.equal([]);
    });

    it('refuses a second record for the same source URL and kind', async () => {
      const record = makeRecord();
      await store.putRecords([record]);
      let failed = false;
      try {
        await store.putRecords([{ ...record, id: `${record.id}-other` }]);
      } catch {
        failed = true;
      }
      expect(failed).to.equal(true);
      expect((await store.catalogState()).total).to.equal(1);
    });

    it('keeps the catalog compilation date and deletes records', async () => {
      const records = [makeRecord(), makeRecord()];
      expect((await store.catalogState()).updated).to.equal(null);
      await store.putRecords(records);
      await store.setCatalogUpdated('2026-11-20');
      await store.deleteRecords([records[0]?.id ?? '']);
      const state = await store.catalogState();
      expect(state).to.include({ version: '1.0', updated: '2026-11-20', total: 1 });
      expect(await store.getRecord(records[0]?.id ?? '')).to.equal(undefined);
    });

    it('moves the compilation date only forward, each move taking a change number', async () => {
      await store.setCatalogUpdated('2026-11-20');
      const before = await store.catalogState();
      await store.setCatalogUpdated('2026-11-18');
      expect(await store.catalogState(), 'an earlier date').to.deep.equal(before);
      await store.setCatalogUpdated('2026-11-20');
      expect(await store.catalogState(), 'the same date').to.deep.equal(before);
      await store.setCatalogUpdated('2026-11-26');
      expect(await store.catalogState()).to.include({ updated: '2026-11-26', changeNumber: before.changeNumber + 1 });
    });

    it('puts removals in the change feed after the writes before them', async () => {
      const [kept, removed] = [makeRecord(), makeRecord()];
      await store.putRecords([kept, removed]);
      const before = (await store.catalogState()).changeNumber;
      await store.deleteRecords([removed.id, 'svg-unknown-00000000']);
      const removals = await store.removalsSince(before, 10);
      expect(removals.map((removal) => removal.id)).to.deep.equal([removed.id]);
      expect(removals[0]?.seq).to.be.above(before);
      expect((await store.catalogState()).changeNumber).to.be.at.least(removals[0]?.seq ?? Infinity);
      expect(await store.removalsSince(removals[0]?.seq ?? 0, 10)).to.deep.equal([]);
      await store.putRecords([removed]);
      const [back] = await store.changesSince(removals[0]?.seq ?? 0, 10);
      expect(back?.id).to.equal(removed.id);
    });

    it('puts and removes in one step, both in the change feed', async () => {
      const [old, kept] = [makeRecord(), makeRecord()];
      await store.putRecords([old, kept]);
      const before = (await store.catalogState()).changeNumber;
      const replacement = makeRecord();
      await store.replaceRecords([replacement], [{ id: old.id, reason: 'replaced' }]);
      expect(await store.getRecord(old.id)).to.equal(undefined);
      expect((await store.getRecord(replacement.id))?.id).to.equal(replacement.id);
      expect((await store.catalogState()).total).to.equal(2);
      expect((await store.changesSince(before, 10)).map((record) => record.id)).to.deep.equal([replacement.id]);
      expect((await store.removalsSince(before, 10)).map((removal) => removal.id)).to.deep.equal([old.id]);
    });

    it('keeps a retired id answering: moved to the record that holds its work, or withdrawn with where it came from', async () => {
      const [timeline, gallery, other] = [makeRecord({ kind: 'timeline' }), makeRecord(), makeRecord({ title: { zh: '撤回', en: 'Withdrawn work' } })];
      await store.putRecords([timeline, gallery, other]);
      expect(await store.recordFate(timeline.id)).to.equal(undefined);
      await store.replaceRecords([], [{ id: timeline.id, movedTo: gallery.id, reason: 'the timeline starts with an earlier work' }]);
      expect(await store.recordFate(timeline.id)).to.deep.include({ id: timeline.id, status: 'moved', movedTo: gallery.id, reason: 'the timeline starts with an earlier work' });
      expect(await resolveRecordId(store, timeline.id)).to.deep.include({ status: 'moved', currentId: gallery.id });
      await store.deleteRecords([other.id], 'the source asked for it to be taken down');
      const withdrawn = await store.recordFate(other.id);
      expect(withdrawn).to.deep.include({ status: 'withdrawn', reason: 'the source asked for it to be taken down', sourceUrl: other.sourceUrl, title: other.title });
      expect(Number.isNaN(Date.parse(withdrawn?.at ?? ''))).to.equal(false);
      expect(await store.recordFate('svg-never-00000000')).to.equal(undefined);
      expect((await resolveRecordId(store, 'svg-never-00000000')).status).to.equal('unknown');
      // Moves are followed to the end; a withdrawal at the end ends them.
      await store.deleteRecords([gallery.id]);
      expect(await resolveRecordId(store, timeline.id)).to.deep.include({ status: 'withdrawn', movedVia: [gallery.id] });
      // An id written again is a record again.
      await store.putRecords([gallery]);
      expect(await store.recordFate(gallery.id)).to.equal(undefined);
      expect((await resolveRecordId(store, timeline.id)).status).to.equal('moved');
    });

    it('keeps the source table: the built-in sources to start with, then added, replaced and removed ones', async () => {
      const keys = (await sources.listSources()).map((source) => source.key);
      expect(keys).to.deep.equal(BUILT_IN_SOURCES.map((source) => source.key).filter((key) => key !== 'web').sort());
      const mastodon = { key: 'mastodon', label: { zh: '长毛象', en: 'Mastodon' }, hosts: ['mastodon.social'], mediaHosts: ['files.mastodon.social'], handlePattern: '^/@([A-Za-z0-9_]+)/' };
      await sources.putSource(mastodon);
      expect((await sources.listSources()).find((source) => source.key === 'mastodon')).to.deep.equal(mastodon);
      await sources.putSource({ ...mastodon, mediaHosts: [] });
      expect((await sources.listSources()).find((source) => source.key === 'mastodon')?.mediaHosts).to.deep.equal([]);
      expect(await sources.removeSource('mastodon')).to.equal(true);
      expect(await sources.removeSource('mastodon')).to.equal(false);
      expect((await sources.listSources()).map((source) => source.key)).not.to.include('mastodon');
    });

    it('gives every change of the source table a change number, as a record write, so what was read before it is read again', async () => {
      const changeNumber = async (): Promise<number> => (await store.catalogState()).changeNumber;
      const mastodon = { key: 'mastodon', label: { zh: '长毛象', en: 'Mastodon' }, hosts: ['mastodon.social'], mediaHosts: [] };
      const start = await changeNumber();
      await sources.putSource(mastodon);
      const added = await changeNumber();
      expect(added).to.be.above(start);
      await sources.putSource({ ...mastodon, label: { zh: '长毛象', en: 'Mastodon (fediverse)' } });
      const replaced = await changeNumber();
      expect(replaced).to.be.above(added);
      await sources.removeSource('mastodon');
      const removed = await changeNumber();
      expect(removed).to.be.above(replaced);
      expect(await sources.removeSource('mastodon')).to.equal(false);
      expect(await changeNumber()).to.equal(removed);
      // Record writes after it take the numbers after it, and the count is unchanged.
      const record = makeRecord();
      await store.putRecords([record]);
      expect((await store.getRecord(record.id))?.seq).to.be.above(removed);
      expect((await store.catalogState()).total).to.equal(1);
    });

    it('keeps named checkpoints of change-feed followers, and forgets one asked to', async () => {
      expect(await store.readCheckpoint('search-sync')).to.equal(0);
      await store.writeCheckpoint('search-sync', 42);
      await store.writeCheckpoint('other', 7);
      expect(await store.readCheckpoint('search-sync')).to.equal(42);
      expect(await store.readCheckpoint('other')).to.equal(7);
      await store.deleteCheckpoint('other');
      expect(await store.readCheckpoint('other')).to.equal(0);
      expect(await store.readCheckpoint('search-sync')).to.equal(42);
    });

    it('bounds both feed lists by a change number read before them', async () => {
      const records = [makeRecord(), makeRecord(), makeRecord()];
      await store.putRecords(records);
      const head = (await store.catalogState()).changeNumber;
      await store.deleteRecords([records[0]?.id ?? '']);
      await store.putRecords([makeRecord()]);
      expect((await store.changesSince(0, 10, head)).map((record) => record.id)).to.deep.equal(records.slice(1).map((record) => record.id));
      expect(await store.removalsSince(0, 10, head)).to.deep.equal([]);
      expect(await store.removalsSince(head, 10, head + 1)).to.deep.equal([{ id: records[0]?.id, seq: head + 1 }]);
      expect(await store.changesSince(0, 10)).to.have.length(3);
    });

    it('streams every record id with its change number, in id order', async () => {
      const records = Array.from({ length: 7 }, () => makeRecord());
      await store.putRecords(records);
      const versions = [];
      for await (const version of store.streamVersions(3)) versions.push(version);
      const expected = [];
      for (const record of [...records].sort((a, b) => (a.id < b.id ? -1 : 1))) expected.push({ id: record.id, seq: (await store.getRecord(record.id))?.seq });
      expect(versions).to.deep.equal(expected);
    });

    it('prunes removals up to a change number, never past the lowest follower checkpoint', async () => {
      const records = [makeRecord(), makeRecord(), makeRecord()];
      await store.putRecords(records);
      for (const record of records) await store.deleteRecords([record.id]);
      const [first, second, third] = await store.removalsSince(0, 10);
      await store.writeCheckpoint('search-sync', third?.seq ?? 0);
      await store.writeCheckpoint('slow-follower', first?.seq ?? 0);
      expect(await store.pruneRemovals(third?.seq ?? 0)).to.equal(1);
      expect(await store.removalsSince(0, 10)).to.deep.equal([second, third]);
      await store.writeCheckpoint('slow-follower', third?.seq ?? 0);
      expect(await store.pruneRemovals(second?.seq ?? 0)).to.equal(1);
      expect(await store.removalsSince(0, 10)).to.deep.equal([third]);
    });

    it('finds records by model label as the model filter does (case and width aside), earliest first', async () => {
      const late = makeRecord({ model: 'Label-X', date: '2025-05-05' });
      const early = makeRecord({ model: 'Label-X', date: '2024-01-01', kind: 'timeline' });
      const lower = makeRecord({ model: 'label-x', date: '2024-06-01' });
      const wide = makeRecord({ model: 'ＬＡＢＥＬ－Ｘ', date: '2024-08-01' });
      await store.putRecords([late, early, lower, wide, makeRecord({ model: 'Label-X2' })]);
      expect((await store.findByModel('Label-X')).map((record) => record.id)).to.deep.equal([early.id, lower.id, wide.id, late.id]);
      expect((await store.findByModel('label-x')).map((record) => record.id)).to.deep.equal([early.id, lower.id, wide.id, late.id]);
      expect(await store.findByModel('Nobody')).to.deep.equal([]);
    });

    it('finds records by the work key of their source URL, also when it was stored unfolded or in another form', async () => {
      const plain = makeRecord();
      // As stored before the owner and repository were folded: the URL's case is kept, the key is folded.
      const mixedCase = { ...makeRecord(), sourceUrl: 'https://github.com/Demo-Lin/Pelican-SVG/blob/main/Pelican.svg' };
      const withHandle = makeRecord({ sourceUrl: 'https://x.com/demo_mira/status/1790000000000000000' });
      await store.putRecords([plain, mixedCase, withHandle]);
      const idsOf = async (url: string) => (await store.findByWorkKey(workKey(url))).map((record) => record.id);
      expect(await idsOf(plain.sourceUrl)).to.deep.equal([plain.id]);
      expect(await idsOf('https://github.com/demo-lin/pelican-svg/blob/main/Pelican.svg')).to.deep.equal([mixedCase.id]);
      expect(await idsOf('https://github.com/demo-lin/pelican-svg/blob/main/pelican.svg'), 'a file path is case-sensitive').to.deep.equal([]);
      expect(await idsOf('https://x.com/i/web/status/1790000000000000000')).to.deep.equal([withHandle.id]);
      expect(await idsOf('https://x.com/someone_else/status/1790000000000000000')).to.deep.equal([withHandle.id]);
      expect(await idsOf('https://x.com/demo_mira/status/1790000000000000001')).to.deep.equal([]);
    });

    it('lists the works with more than one record of one kind, by work key, each with its ids in id order, and counts them', async () => {
      expect(await store.sharedWorks(10)).to.deep.equal({ total: 0, works: [] });
      // Forms of one work published as records of one kind before the work key rules made them one work.
      const posts = ['https://x.com/demo_mira/status/1790000000000000077', 'https://x.com/i/web/status/1790000000000000077', 'https://x.com/someone/status/1790000000000000077'].map((sourceUrl) => makeRecord({ sourceUrl }));
      const videos = [makeRecord({ sourceUrl: 'https://bilibili.com/video/BV17x411w7KC' }), makeRecord({ sourceUrl: 'https://bilibili.com/video/av170001' })];
      const threads = [makeRecord({ kind: 'timeline', sourceUrl: 'https://reddit.com/r/aiArt/comments/1eg3dm2/a_slug' }), makeRecord({ kind: 'timeline', sourceUrl: 'https://reddit.com/comments/1eg3dm2' })];
      // A work's gallery and timeline records are one of each: not listed, nor a work of one record.
      const gallery = makeRecord({ sourceUrl: 'https://github.com/factory-author/one-of-each' });
      const timeline = makeRecord({ kind: 'timeline', sourceUrl: gallery.sourceUrl });
      const threadGallery = makeRecord({ sourceUrl: 'https://reddit.com/comments/1eg3dm2' });
      await store.putRecords([...posts, ...videos, ...threads, gallery, timeline, threadGallery, makeRecord()]);
      const idsOf = (records: CanonicalRecord[]) => records.map((record) => record.id).sort();
      const all = [
        { kind: 'gallery', workKey: 'https://bilibili.com/video/BV17x411w7KC', ids: idsOf(videos) },
        { kind: 'timeline', workKey: 'https://reddit.com/comments/1eg3dm2', ids: idsOf(threads) },
        { kind: 'gallery', workKey: 'https://x.com/i/web/status/1790000000000000077', ids: idsOf(posts) },
      ];
      expect(await store.sharedWorks(10)).to.deep.equal({ total: 3, works: all });
      // Bounded: the first works by key, with the count of all of them.
      expect(await store.sharedWorks(2)).to.deep.equal({ total: 3, works: all.slice(0, 2) });
      expect(await store.sharedWorks(0)).to.deep.equal({ total: 3, works: [] });
      // A withdrawal of one leaves that work a record of each kind.
      await store.deleteRecords([videos[0]?.id ?? '']);
      expect(await store.sharedWorks(10)).to.deep.equal({ total: 2, works: all.slice(1) });
    });

    it('finds the withdrawals of a work by its work key, latest first, never a moved id, and forgets one written again', async () => {
      const gallery = makeRecord({ sourceUrl: 'https://x.com/demo_mira/status/1790000000000000042' });
      const timeline = { ...gallery, kind: 'timeline' as const, id: `${gallery.id}-timeline` };
      const moved = makeRecord({ sourceUrl: 'https://x.com/i/web/status/1790000000000000042' });
      const otherWork = makeRecord({ sourceUrl: 'https://x.com/demo_mira/status/1790000000000000043' });
      await store.putRecords([gallery, timeline, moved, otherWork]);
      await store.replaceRecords([], [{ id: moved.id, movedTo: gallery.id, reason: 'the same post' }]);
      await store.deleteRecords([timeline.id], 'first takedown');
      await new Promise((resolve) => setTimeout(resolve, 5));
      await store.deleteRecords([gallery.id], 'second takedown');
      // Any form of the post's URL names the work.
      const withdrawals = await store.findWithdrawals(workKey('https://x.com/someone_else/status/1790000000000000042'));
      expect(withdrawals.map((entry) => [entry.id, entry.status, entry.reason, entry.sourceUrl])).to.deep.equal([
        [gallery.id, 'withdrawn', 'second takedown', gallery.sourceUrl],
        [timeline.id, 'withdrawn', 'first takedown', gallery.sourceUrl],
      ]);
      expect(withdrawals[0]?.title).to.deep.equal(gallery.title);
      expect(await store.findWithdrawals(workKey(otherWork.sourceUrl))).to.deep.equal([]);
      await store.putRecords([gallery]);
      expect((await store.findWithdrawals(workKey(gallery.sourceUrl))).map((entry) => entry.id)).to.deep.equal([timeline.id]);
    });

    it('lists the ids retired since a day, moved and withdrawn, in the order of their retirement, page after page, and not the ones written again', async () => {
      const [timeline, gallery, withdrawn, republished] = [makeRecord({ kind: 'timeline' }), makeRecord(), makeRecord(), makeRecord()];
      await store.putRecords([timeline, gallery, withdrawn, republished]);
      const dayOf = (at: string): string => at.slice(0, 10);
      const dayAfter = (day: string): string => new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10);
      expect(await store.fatesSince(dayOf(new Date().toISOString()), undefined, 10)).to.deep.equal({ total: 0, fates: [] });
      await store.replaceRecords([], [{ id: timeline.id, movedTo: gallery.id, reason: 'the timeline starts with an earlier work' }]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await store.deleteRecords([withdrawn.id, republished.id], 'the source asked for it to be taken down');
      // The days the retirements were stamped with (a run may cross midnight UTC between them).
      const stamped = (await store.fatesSince('2015-01-01', undefined, 10)).fates.map((fate) => dayOf(fate.at));
      const today = stamped[0] ?? '';
      const lastDay = stamped.at(-1) ?? '';
      const { total, fates } = await store.fatesSince(today, undefined, 10);
      expect(total).to.equal(3);
      // The move came first; the two withdrawals share an instant and follow by id.
      expect(fates.map((fate) => fate.id)).to.deep.equal([timeline.id, ...[withdrawn.id, republished.id].sort()]);
      expect(fates[0]).to.deep.include({ status: 'moved', movedTo: gallery.id, reason: 'the timeline starts with an earlier work' });
      expect(fates[1]).to.deep.include({ status: 'withdrawn', reason: 'the source asked for it to be taken down' });
      expect(fates.every((fate) => dayOf(fate.at) >= today && dayOf(fate.at) <= lastDay)).to.equal(true);
      // Page by page from the last one read: every id once, the total the same on every page.
      const walked: string[] = [];
      for (let page = await store.fatesSince(today, undefined, 2); ; ) {
        expect(page.total).to.equal(3);
        walked.push(...page.fates.map((fate) => fate.id));
        const last = page.fates.at(-1);
        if (!last || page.fates.length < 2) break;
        page = await store.fatesSince(today, { at: last.at, id: last.id }, 2);
      }
      expect(walked).to.deep.equal(fates.map((fate) => fate.id));
      // A day before counts the same; the day after holds none of them.
      expect((await store.fatesSince('2015-01-01', undefined, 10)).total).to.equal(3);
      expect(await store.fatesSince(dayAfter(lastDay), undefined, 10)).to.deep.equal({ total: 0, fates: [] });
      // An id written again is a record again, not a removal.
      await store.putRecords([republished]);
      expect((await store.fatesSince(today, undefined, 10)).fates.map((fate) => fate.id)).to.not.include(republished.id);
    });

    it('answers ping', async () => {
      await store.ping();
    });
  });
}
