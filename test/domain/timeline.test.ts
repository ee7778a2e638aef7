import { expect } from 'chai';
import { recordId } from '../../src/domain/ids.ts';
import { galleryIdOf, planPublication } from '../../src/domain/ingest/timeline.ts';
import type { CanonicalRecord } from '../../src/domain/record.ts';
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
});
