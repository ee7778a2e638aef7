import { encodeCursor, queryFingerprint } from '../domain/cursor.ts';
import { recordId } from '../domain/ids.ts';
import { localizeRecord } from '../domain/localize.ts';
import type { LocalizedRecord } from '../domain/localize.ts';
import { listQuery } from '../domain/specimens.ts';
import type { ListResponse, ListScope } from '../domain/specimens.ts';
import type { CanonicalRecord, Lang } from '../domain/record.ts';

const SHA256 = '5d0c6e1b9f4a27c3e8d1b6a0f2c49e7d3a8b5c1e6f0d2a4b7c9e1f3a5b7d9c2e';

/** The record the examples show: the first work of the demo catalog. */
export const EXAMPLE_RECORD: CanonicalRecord = {
  id: recordId({ canonicalSourceUrl: 'https://x.com/demo_mira/status/1637841269350412288', kind: 'gallery', format: 'svg', model: 'GPT-4' }),
  kind: 'gallery',
  source: 'x',
  sourceUrl: 'https://x.com/demo_mira/status/1637841269350412288',
  date: '2023-03-20',
  model: 'GPT-4',
  author: '@demo_mira',
  format: 'svg',
  title: { zh: '档案中最早的骑自行车鹈鹕', en: "The archive's earliest pelican on a bicycle" },
  notes: {
    zh: '演示记录。GPT-4 早期尝试画骑自行车的鹈鹕：鸟身是一个椭圆，配一个三角形的喙，自行车却只有一个轮子。',
    en: 'Demo record. An early GPT-4 attempt at a pelican riding a bicycle: the bird is an oval with a triangular beak, and the bicycle has only one wheel.',
  },
  prompt: 'Generate an SVG of a pelican riding a bicycle',
  promptCategory: 'pelican-bicycle',
  mediaStatus: 'local-media',
  media: [{ path: `${SHA256.slice(0, 2)}/${SHA256}.png`, width: 800, height: 600, sha256: SHA256, thumbnailPath: `${SHA256.slice(0, 2)}/${SHA256}.thumb.webp` }],
  updated: '2026-11-20',
};

/** The example record as the API presents it in one language. */
export function exampleRecord(baseUrl: string, lang: Lang = 'en'): LocalizedRecord {
  return localizeRecord(EXAMPLE_RECORD, lang, baseUrl);
}

/** A one-item page of a list answer. */
export function exampleList(baseUrl: string, lang: Lang = 'en'): ListResponse {
  return { total: 1, offset: 0, limit: 20, items: [exampleRecord(baseUrl, lang)], next: null };
}

/** A page of a search asking for facets, with more pages to follow. */
export function exampleFacetedList(baseUrl: string, lang: Lang = 'en'): ListResponse {
  return {
    total: 3,
    offset: 0,
    limit: 1,
    items: [exampleRecord(baseUrl, lang)],
    next: encodeCursor(queryFingerprint(listQuery({ lang, facets: ['format', 'year'] }, 'specimens')), { returned: 1, position: { date: EXAMPLE_RECORD.date, id: EXAMPLE_RECORD.id } }),
    facets: { format: { svg: 3, game: 1 }, year: { '2023': 2, '2024': 1 } },
  };
}

/**
 * The next of the first page of a list asked with no parameter at all: the cursor parameter's
 * example, valid sent alone (a cursor carries its query's fingerprint, so it is valid only with the
 * query that gave it).
 */
export function exampleFirstPageCursor(scope: ListScope): string {
  return encodeCursor(queryFingerprint(listQuery({ lang: 'zh' }, scope)), { returned: 20, position: { date: EXAMPLE_RECORD.date, id: EXAMPLE_RECORD.id } });
}

export const EXAMPLE_SUBMISSION_ID = 'sub_0m3x8k2q9f1c2d3e4f5a6b7c8';

/** A submission as a maintainer sends it. */
export const EXAMPLE_SUBMISSION = {
  sourceUrl: 'https://github.com/demo-owner/pelican',
  date: '2025-03-01',
  model: 'GPT-4o',
  author: '@demo-owner',
  format: 'svg',
  title: { zh: '骑自行车的鹈鹕', en: 'A pelican riding a bicycle' },
  notes: { zh: '两个车轮、链条和踏板都画出来了。', en: 'Both wheels, the chain and the pedals are drawn.' },
  media: ['https://raw.githubusercontent.com/demo-owner/pelican/main/preview.png'],
  prompt: 'Generate an SVG of a pelican riding a bicycle',
};

/** The status of a published submission. */
export function exampleSubmissionStatus(baseUrl: string): Record<string, unknown> {
  const detail = 'Passed.';
  return {
    submissionId: EXAMPLE_SUBMISSION_ID,
    status: 'published',
    statusUrl: `${baseUrl}/api/v1/ingest/${EXAMPLE_SUBMISSION_ID}`,
    submittedAt: '2026-11-21T09:14:03.512Z',
    updatedAt: '2026-11-21T09:14:05.087Z',
    attempts: 1,
    checks: ['source-identity', 'date', 'preview-ownership', 'duplicates', 'images'].map((name) => ({ name, outcome: 'pass', detail })),
    recordIds: ['svg-gpt-4o-6b1d0c2e'],
    duplicateOf: null,
    reason: null,
    reviews: [],
    batchUrl: null,
  };
}

/** A submission a maintainer approved although one check failed. */
export function exampleApprovedStatus(baseUrl: string): Record<string, unknown> {
  const at = '2026-11-21T10:02:00.000Z';
  const base = exampleSubmissionStatus(baseUrl);
  const override = { by: 'lin-reviewer', note: 'A different drawing by the same author; the resemblance is the subject.', at };
  return {
    ...base,
    status: 'queued',
    attempts: 0,
    updatedAt: at,
    recordIds: [],
    checks: (base.checks as { name: string }[]).map((check) => (check.name === 'duplicates' ? { name: 'duplicates', outcome: 'fail', detail: 'The preview https://raw.githubusercontent.com/demo-owner/pelican/main/preview.png is perceptually similar (blockhash distance 31 of 256) to a preview of svg-gpt-4o-2a7c9e10, but not near enough to be called a copy; a maintainer must decide whether it is the same work.' } : check)),
    reason: `Approved by ${override.by}: ${override.note}`,
    reviews: [{ decision: 'approve', ...override, from: 'needs_review' }],
  };
}
