import { expect } from 'chai';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { buildDemoRecords, readDemoWorks } from '../../src/demo/seed.ts';
import { checkCatalog } from '../../src/catalog/catalog-file.ts';
import { FORMATS, KINDS } from '../../src/domain/record.ts';
import { temporaryDataDir } from '../helpers/server.ts';

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
});
