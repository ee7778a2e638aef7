import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { RecordStore } from '../domain/ports.ts';
import type { CanonicalRecord, Format, Kind, MediaStatus, StoredMedia } from '../domain/record.ts';
import { canonicalSourceUrl, sourceKeyForHost } from '../domain/sources.ts';
import { recordId } from '../domain/ids.ts';
import type { Logger } from '../logger.ts';
import { describePreview, storePreview } from '../media/media-files.ts';
import { isPreviewSubject, renderPreviewArt } from './preview-art.ts';
import type { PreviewSubject } from './preview-art.ts';

/** The compilation date of the demo catalog. */
export const DEMO_COMPILED = '2026-11-20';

/** One work of src/demo/demo-works.json, written for this project and labelled as demo data. */
export interface DemoWork {
  sourceUrl: string;
  date: string;
  model: string;
  author: string;
  format: Format;
  kind: Kind;
  title: { zh: string; en: string };
  notes: { zh: string; en: string };
  prompt?: string;
  promptCategory: string;
  /** What the work shows, and so what its preview draws: one of PREVIEW_SUBJECTS (preview-art.ts), named by hand for every work. */
  subject: PreviewSubject;
  mediaStatus: MediaStatus;
}

export async function readDemoWorks(): Promise<DemoWork[]> {
  return JSON.parse(await readFile(new URL('./demo-works.json', import.meta.url), 'utf8')) as DemoWork[];
}

/** A demo work's preview: its plate rendered to PNG (the same bytes for the same work, with the same build of sharp). */
async function renderDemoPreview(work: DemoWork, index: number): Promise<Buffer> {
  if (!isPreviewSubject(work.subject)) throw new Error(`demo work ${index} names no known subject: ${String(work.subject)}`);
  const svg = renderPreviewArt({ subject: work.subject, title: work.title.en, seed: index + 1 });
  return sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer();
}

/** The record a demo work becomes, holding the media given. */
function demoRecord(work: DemoWork, index: number, media: StoredMedia[]): CanonicalRecord {
  const sourceUrl = canonicalSourceUrl(work.sourceUrl);
  if (!sourceUrl) throw new Error(`demo work ${index} has an invalid source URL`);
  return {
    id: recordId({ canonicalSourceUrl: sourceUrl, kind: work.kind, format: work.format, model: work.model }),
    kind: work.kind,
    source: sourceKeyForHost(new URL(sourceUrl).hostname),
    sourceUrl,
    date: work.date,
    model: work.model,
    author: work.author,
    format: work.format,
    title: work.title,
    notes: work.notes,
    ...(work.prompt === undefined ? {} : { prompt: work.prompt }),
    promptCategory: work.promptCategory,
    mediaStatus: work.mediaStatus,
    media,
    updated: DEMO_COMPILED,
  };
}

/** Builds the demo records, rendering each local-media preview with sharp and storing it as archive media. */
export async function buildDemoRecords(mediaDir: string): Promise<CanonicalRecord[]> {
  const works = await readDemoWorks();
  return Promise.all(
    works.map(async (work, index): Promise<CanonicalRecord> => {
      const media = work.mediaStatus === 'local-media' ? [await storePreview(mediaDir, await renderDemoPreview(work, index), 'png')] : [];
      return demoRecord(work, index, media);
    }),
  );
}

/**
 * The demo catalog as the API description's examples name it, with nothing written: its first
 * work's record, its media as the demo seed stores them (the preview rendered again, the same bytes
 * with this build of sharp), and the id the demo's first records sitemap is named by.
 */
export async function demoExamples(): Promise<{ record: CanonicalRecord; firstId: string }> {
  const works = await readDemoWorks();
  const [work] = works;
  if (!work) throw new Error('the demo catalog is empty');
  const media = work.mediaStatus === 'local-media' ? [await describePreview(await renderDemoPreview(work, 0), 'png')] : [];
  const ids = works.map((each, index) => demoRecord(each, index, []).id).sort();
  return { record: demoRecord(work, 0, media), firstId: ids[0] ?? '' };
}

/** Loads the demo catalog when the store holds no records; returns how many records it wrote. */
export async function loadDemoIfEmpty(store: RecordStore, mediaDir: string, logger: Logger): Promise<number> {
  if ((await store.catalogState()).total > 0) return 0;
  const records = await buildDemoRecords(mediaDir);
  await store.putRecords(records);
  await store.setCatalogUpdated(DEMO_COMPILED);
  logger.info('demo catalog loaded', { records: records.length });
  return records.length;
}
