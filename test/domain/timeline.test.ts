import { expect } from 'chai';
import { recordId } from '../../src/domain/ids.ts';
import { galleryIdOf, planPublication, planWithdrawal } from '../../src/domain/ingest/timeline.ts';
import type { CanonicalRecord, StoredRecord } from '../../src/domain/record.ts';
import { makeRecord } from '../helpers/factories.ts';

/** A published work of a model: its gallery record, and its timeline record when it has one. */
function work(sourceUrl: string, date: string, options: { timeline?: boolean; ingested?: boolean } = {}): CanonicalRecord[] {
  const gallery = makeRecord({ sourceUrl, date, model: 'Timeline-Model', ...(options.ingested === false ? {} : { submissionId: `sub_${date}` }) });
  if (!options.timeline) return [gallery];
  const timelineId = recordId({ canonicalSourceUrl: gallery.sourceUrl, kind: 'timeline', format: gallery.format, model: gallery.model });
  return [gallery, { ...gallery, id: timelineId, kind: 'timeline' }];
}

describe('the timeline rule, without a queue or a store', () => {
  it('gives the first work of a model a gallery and a timeline record', () => {
    const [gallery] = work('https://github.com/a/first', '2025-05-01');
    const plan = planPublication(gallery as CanonicalRecord, []);
    expect(plan.put.map((record) => record.kind)).to.deep.equal(['gallery', 'timeline']);
    expect(plan.retire).to.deep.equal([]);
    expect(galleryIdOf(plan.put[1] as CanonicalRecord)).to.equal(gallery?.id);
  });

  it('gives a later work a gallery record only', () => {
    const published = work('https://github.com/a/first', '2025-05-01', { timeline: true });
    const [later] = work('https://github.com/a/later', '2025-09-01');
    expect(planPublication(later as CanonicalRecord, published)).to.deep.equal({ put: [later], retire: [] });
  });

  it('moves the timeline to an earlier work, the old timeline id to the gallery record of its own work', () => {
    const published = work('https://github.com/a/first', '2025-05-01', { timeline: true });
    const [earlier] = work('https://github.com/a/earlier', '2024-01-15');
    const plan = planPublication(earlier as CanonicalRecord, published);
    expect(plan.put.map((record) => [record.id === earlier?.id, record.kind])).to.deep.equal([[true, 'gallery'], [false, 'timeline']]);
    expect(plan.retire).to.have.length(1);
    expect(plan.retire[0]).to.include({ id: published[1]?.id, movedTo: published[0]?.id });
    expect(plan.retire[0]?.reason).to.include(plan.put[1]?.id ?? 'x');
  });

  it('decides ties of date by id, and leaves an imported (editorial) timeline record alone', () => {
    const imported = work('https://github.com/a/imported', '2023-01-01', { timeline: true, ingested: false });
    const [earliest] = work('https://github.com/a/earliest', '2022-06-01');
    expect(planPublication(earliest as CanonicalRecord, imported).retire).to.deep.equal([]);
    const [a] = work('https://github.com/a/same-day-a', '2025-01-01');
    const [b] = work('https://github.com/a/same-day-b', '2025-01-01');
    const [first, second] = [a, b].sort((x, y) => ((x?.id ?? '') < (y?.id ?? '') ? -1 : 1)) as CanonicalRecord[];
    expect(planPublication(second as CanonicalRecord, [first as CanonicalRecord]).put).to.have.length(1);
    expect(planPublication(first as CanonicalRecord, [second as CanonicalRecord]).put).to.have.length(2);
  });

  it('says a tie of date for what it is when a work of the same date, first by id, takes the timeline', () => {
    const [a] = work('https://github.com/a/same-day-a', '2025-01-01');
    const [b] = work('https://github.com/a/same-day-b', '2025-01-01');
    const [lower, higher] = [a, b].sort((x, y) => ((x?.id ?? '') < (y?.id ?? '') ? -1 : 1)) as CanonicalRecord[];
    const holding = planPublication(higher as CanonicalRecord, []).put;
    const plan = planPublication(lower as CanonicalRecord, holding);
    expect(plan.retire[0]?.reason).to.match(/now starts with a work of the same date that comes first in the archive's order of ids/);
    const [earlier] = work('https://github.com/a/earlier', '2024-01-01');
    expect(planPublication(earlier as CanonicalRecord, holding).retire[0]?.reason).to.match(/now starts with an earlier work/);
  });

  it('gives no timeline record to a work dated on or after the editorial timeline record of its model, even without a gallery twin', () => {
    const [editorialTimeline] = work('https://github.com/a/editorial', '2024-05-16', { timeline: true, ingested: false }).filter((record) => record.kind === 'timeline');
    const [later] = work('https://github.com/a/later', '2025-03-07');
    const [sameDay] = work('https://github.com/a/same-day', '2024-05-16');
    const [earlier] = work('https://github.com/a/earlier', '2023-02-01');
    expect(planPublication(later as CanonicalRecord, [editorialTimeline as CanonicalRecord]).put).to.have.length(1);
    expect(planPublication(sameDay as CanonicalRecord, [editorialTimeline as CanonicalRecord]).put).to.have.length(1);
    expect(planPublication(earlier as CanonicalRecord, [editorialTimeline as CanonicalRecord]).put, 'an earlier work than the editor knew').to.have.length(2);
  });

  describe('withdrawal', () => {
    const stored = (records: CanonicalRecord[]): StoredRecord[] => records.map((record, index) => ({ ...record, seq: index + 1 }));
    const withdrawing = (records: readonly CanonicalRecord[]): Set<string> => new Set(records.map((record) => record.id));

    it('passes the timeline of a withdrawn earliest work to the earliest remaining ingested work', () => {
      const first = work('https://github.com/a/first', '2025-05-01', { timeline: true });
      const third = work('https://github.com/a/third', '2025-09-01');
      const second = work('https://github.com/a/second', '2025-07-01');
      const plan = planWithdrawal(withdrawing(first), 'Taken down.', stored([...first, ...second, ...third]), '2026-12-01');
      expect(plan.retire).to.deep.equal(first.map((record) => ({ id: record.id, reason: 'Taken down.' })));
      expect(plan.put.map((record) => [record.kind, record.sourceUrl])).to.deep.equal([['timeline', second[0]?.sourceUrl]]);
      expect(plan.put[0]).not.to.have.property('seq');
      // New to the catalog on the day of the withdrawal, whatever day its gallery record was compiled.
      expect(plan.put[0]?.updated).to.equal('2026-12-01');
      expect(second[0]?.updated).to.not.equal('2026-12-01');
    });

    it('gives no timeline record when the earliest remaining work is editorial, or when none remains', () => {
      const first = work('https://github.com/a/first', '2025-05-01', { timeline: true });
      const editorial = work('https://github.com/a/editorial', '2025-06-01', { ingested: false });
      const later = work('https://github.com/a/later', '2025-08-01');
      expect(planWithdrawal(withdrawing(first), 'Taken down.', stored([...first, ...editorial, ...later]), '2026-12-01').put).to.deep.equal([]);
      expect(planWithdrawal(withdrawing(first), 'Taken down.', stored(first), '2026-12-01').put).to.deep.equal([]);
    });

    it('passes the timeline on to no work dated on or after an editorial timeline record of the model', () => {
      const first = work('https://github.com/a/first', '2024-01-01', { timeline: true });
      const editorialTimeline = work('https://github.com/a/editorial', '2024-05-16', { timeline: true, ingested: false }).filter((record) => record.kind === 'timeline');
      const later = work('https://github.com/a/later', '2025-03-07');
      expect(planWithdrawal(withdrawing(first), 'Taken down.', stored([...first, ...editorialTimeline, ...later]), '2026-12-01').put).to.deep.equal([]);
    });

    it('leaves the timeline alone when a gallery record alone is withdrawn, or its work keeps the withdrawn timeline id', () => {
      const first = work('https://github.com/a/first', '2025-05-01', { timeline: true });
      const later = work('https://github.com/a/later', '2025-08-01');
      const [gallery, timeline] = first as [CanonicalRecord, CanonicalRecord];
      expect(planWithdrawal(withdrawing([gallery]), 'Taken down.', stored([...first, ...later]), '2026-12-01').put).to.deep.equal([]);
      expect(planWithdrawal(withdrawing([timeline]), 'Off the timeline.', stored([...first, ...later]), '2026-12-01')).to.deep.equal({ put: [], retire: [{ id: timeline.id, reason: 'Off the timeline.' }] });
    });
  });
});
