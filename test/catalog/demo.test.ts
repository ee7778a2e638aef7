import { expect } from 'chai';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { buildDemoRecords, readDemoWorks } from '../../src/demo/seed.ts';
import { PREVIEW_SUBJECTS, renderPreviewArt } from '../../src/demo/preview-art.ts';
import type { PreviewSubject } from '../../src/demo/preview-art.ts';
import { checkCatalog } from '../../src/catalog/catalog-file.ts';
import { FORMATS, KINDS } from '../../src/domain/record.ts';
import type { CanonicalRecord } from '../../src/domain/record.ts';
import type { LoadedPreview } from '../../src/domain/previews.ts';
import { inspectImage } from '../../indexer/media/inspect-image.ts';
import { PublishedPreviews } from '../../indexer/published-previews.ts';
import { openEmbeddedBackend } from '../helpers/backend.ts';
import { temporaryDataDir } from '../helpers/server.ts';

/** A demo preview as the publisher sees one: its record, published with the preview's hashes, and the preview as a submission would bring it. */
interface InspectedPreview { subject: PreviewSubject; published: CanonicalRecord; preview: LoadedPreview }

/** Inspects a record's stored preview with the publisher's own image check; the record counts as a published gallery work. */
async function inspectPreview(mediaDir: string, record: CanonicalRecord, subject: PreviewSubject): Promise<InspectedPreview> {
  const [media] = record.media;
  if (!media) throw new Error(`${record.id} has no preview`);
  const bytes = readFileSync(join(mediaDir, media.path));
  const inspection = await inspectImage(bytes);
  if (!inspection.ok) throw new Error(`${record.id}: ${inspection.reason}`);
  const hashes = { blockhash: inspection.blockhash, ...(inspection.colourSignature ? { colourSignature: inspection.colourSignature } : {}) };
  return {
    subject,
    published: { ...record, kind: 'gallery', media: [{ ...media, ...hashes }] },
    preview: { url: media.path, bytes, format: inspection.format, width: inspection.width, height: inspection.height, sha256: media.sha256, ...hashes },
  };
}

describe('demo catalog', () => {
  it('is bilingual, plainly labelled, and covers every format, both kinds, several sources and years', async () => {
    const works = await readDemoWorks();
    expect(works.length).to.be.at.least(40);
    expect(works.every((work) => work.notes.en.startsWith('Demo record.') && work.notes.zh.startsWith('演示记录'))).to.equal(true);
    expect(works.every((work) => work.title.zh && work.title.en)).to.equal(true);
    expect(new Set(works.map((work) => work.format))).to.have.all.keys(...FORMATS);
    expect(new Set(works.map((work) => work.kind))).to.have.all.keys(...KINDS);
    expect(new Set(works.map((work) => work.date.slice(0, 4))).size).to.be.at.least(3);
  });

  it('renders a raster preview and a WebP thumbnail for every local-media work', async () => {
    const dataDir = temporaryDataDir();
    try {
      const mediaDir = join(dataDir, 'media');
      const records = await buildDemoRecords(mediaDir);
      expect(() => checkCatalog({ version: '1.0', updated: '2026-11-20', records })).to.not.throw();
      expect(new Set(records.map((record) => record.source)).size).to.be.at.least(5);
      for (const record of records) {
        expect(record.media.length > 0).to.equal(record.mediaStatus === 'local-media');
        for (const media of record.media) {
          const preview = await sharp(readFileSync(join(mediaDir, media.path))).stats();
          expect(preview.channels.some((channel) => channel.stdev > 5), `${record.id} preview is not blank`).to.equal(true);
          expect(existsSync(join(mediaDir, media.thumbnailPath ?? ''))).to.equal(true);
          expect((await sharp(join(mediaDir, media.thumbnailPath ?? '')).metadata()).format).to.equal('webp');
        }
      }
      expect(new Set(records.flatMap((record) => record.media.map((media) => media.sha256))).size).to.equal(records.filter((record) => record.media.length).length);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('names a subject for every work, and every subject has a painter that draws some work', async () => {
    const works = await readDemoWorks();
    for (const [index, work] of works.entries()) expect(PREVIEW_SUBJECTS, `work ${index}, ${work.title.en}`).to.include(work.subject);
    const drawn = works.filter((work) => work.mediaStatus === 'local-media').map((work) => work.subject);
    expect(new Set(drawn)).to.have.all.keys(...PREVIEW_SUBJECTS);
  });

  it('draws each subject as a different picture from the same seed and title', () => {
    const plates = PREVIEW_SUBJECTS.map((subject) => renderPreviewArt({ subject, title: 'The same title', seed: 7 }));
    expect(new Set(plates).size).to.equal(PREVIEW_SUBJECTS.length);
  });

  it('gives works of different subjects previews the duplicate check finds nothing in common between', async () => {
    const { dataDir, backend, dispose } = await openEmbeddedBackend();
    try {
      const mediaDir = join(dataDir, 'media');
      const works = await readDemoWorks();
      const records = await buildDemoRecords(mediaDir);
      const inspected = await Promise.all(
        records.flatMap((record, index) => {
          const subject = works[index]?.subject;
          return subject && record.media.length ? [inspectPreview(mediaDir, record, subject)] : [];
        }),
      );
      for (const subject of PREVIEW_SUBJECTS) {
        const others = new PublishedPreviews(backend.store);
        others.remember(inspected.filter((item) => item.subject !== subject).map((item) => item.published));
        const own = inspected.filter((item) => item.subject === subject).map((item) => item.preview);
        expect(own.length, subject).to.be.above(0);
        expect(others.lookup(own, 'sub_demo_check'), `${subject} previews near another subject's`).to.deep.equal([]);
      }
    } finally {
      await dispose();
    }
  });
});
