import { createHash } from 'node:crypto';
import type { Format, Kind } from './record.ts';

/** A readable slug of a model label, e.g. "GPT-4o" → "gpt-4o". */
export function modelSlug(model: string): string {
  const slug = model
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 24)
    .replace(/-+$/g, '');
  return slug || 'model';
}

/**
 * The stable record id: format, model slug and the first 8 hex digits of SHA-256 over the
 * canonical source URL and kind. The same work published twice can never get a second id.
 */
export function recordId(input: { canonicalSourceUrl: string; kind: Kind; format: Format; model: string }): string {
  const digest = createHash('sha256').update(`${input.canonicalSourceUrl}\n${input.kind}`).digest('hex').slice(0, 8);
  return `${input.format}-${modelSlug(input.model)}-${digest}`;
}

/** What a record id can look like: schemas/record-params.schema.json's pattern and its 128-character bound. */
export const RECORD_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,127}$/;
