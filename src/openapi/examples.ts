import { encodeCursor, queryFingerprint } from '../domain/cursor.ts';
import { localizeRecord } from '../domain/localize.ts';
import type { LocalizedRecord } from '../domain/localize.ts';
import { listQuery } from '../domain/specimens.ts';
import type { ListResponse, ListScope } from '../domain/specimens.ts';
import type { Lang } from '../domain/record.ts';
import type { DocContext } from './responses.ts';

/** The example record as the API presents it in one language: the demo catalog's first work (DocContext.example). */
export function exampleRecord(doc: DocContext, lang: Lang = 'en'): LocalizedRecord {
  return localizeRecord(doc.example, lang, doc.baseUrl);
}

/** A one-item page of a list answer. */
export function exampleList(doc: DocContext, lang: Lang = 'en'): ListResponse {
  return { total: 1, offset: 0, limit: 20, items: [exampleRecord(doc, lang)], next: null };
}

/** A page of a search asking for facets, with more pages to follow. */
export function exampleFacetedList(doc: DocContext, lang: Lang = 'en'): ListResponse {
  return {
    total: 3,
    offset: 0,
    limit: 1,
    items: [exampleRecord(doc, lang)],
    next: encodeCursor(queryFingerprint(listQuery({ lang, facets: ['format', 'year'] }, 'specimens')), { returned: 1, position: { date: doc.example.date, id: doc.example.id } }),
    facets: { format: { svg: 3, game: 1 }, year: { '2023': 2, '2024': 1 } },
  };
}

/**
 * The next of the first page of a list asked with no parameter at all: the cursor parameter's
 * example, valid sent alone (a cursor carries its query's fingerprint, so it is valid only with the
 * query that gave it).
 */
export function exampleFirstPageCursor(doc: DocContext, scope: ListScope): string {
  return encodeCursor(queryFingerprint(listQuery({ lang: 'zh' }, scope)), { returned: 20, position: { date: doc.example.date, id: doc.example.id } });
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
