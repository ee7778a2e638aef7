import { recordId } from '../../src/domain/ids.ts';
import type { CanonicalRecord } from '../../src/domain/record.ts';
import type { Submission } from '../../src/domain/submission.ts';
import { canonicalSourceUrl, sourceKeyForHost } from '../../src/domain/sources.ts';

let counter = 0;

/** A valid canonical record; the id and source follow from the (overridable) source URL, kind, format and model. */
export function makeRecord(overrides: Partial<CanonicalRecord> = {}): CanonicalRecord {
  counter += 1;
  const base = {
    kind: 'gallery' as const,
    sourceUrl: `https://github.com/factory-author/work-${counter}`,
    date: '2025-03-14',
    model: 'GPT-4o',
    author: '@factory_author',
    format: 'svg' as const,
    title: { zh: `工厂作品 ${counter}`, en: `Factory work ${counter}` },
    notes: { zh: '测试用的记录。', en: 'A record made by the test factory.' },
    promptCategory: 'svg-illustration',
    mediaStatus: 'text' as const,
    media: [],
    updated: '2026-11-20',
    ...overrides,
  };
  const sourceUrl = canonicalSourceUrl(base.sourceUrl) ?? base.sourceUrl;
  return {
    id: recordId({ canonicalSourceUrl: sourceUrl, kind: base.kind, format: base.format, model: base.model }),
    source: sourceKeyForHost(new URL(sourceUrl).hostname),
    ...base,
    sourceUrl,
    ...(overrides.id ? { id: overrides.id } : {}),
    ...(overrides.source ? { source: overrides.source } : {}),
  };
}

/** A valid submission whose preview is on the source's own media host. */
export function makeSubmission(overrides: Partial<Submission> = {}): Submission {
  return {
    sourceUrl: 'https://github.com/demo-owner/pelican',
    date: '2025-03-01',
    model: 'GPT-4o',
    author: 'Demo Owner',
    format: 'svg',
    title: { zh: '鹈鹕', en: 'Pelican' },
    notes: { zh: '说明', en: 'Notes' },
    media: ['https://raw.githubusercontent.com/demo-owner/pelican/main/preview.png'],
    ...overrides,
  };
}
