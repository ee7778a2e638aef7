/**
 * Looks up a model label or creator as the archive holds it, for an agent that asked one no record
 * has: first_work_of_model and an empty search_specimens both answer with the labels of records
 * that mention what was asked, so the agent asks again with a label that exists rather than
 * searching blindly.
 */
import { oneLine } from '../domain/localize.ts';
import type { Lang } from '../domain/record.ts';
import { listSpecimens } from '../domain/specimens.ts';
import type { ReadContext } from '../domain/specimens.ts';
import { ProblemError } from '../errors.ts';
import { parseSearchParams } from '../validation/read-params.ts';

/** How the lookups' own searches are parsed: arguments, never a source filter (so no source keys to check). */
export const OWN_SEARCH = { fromQueryString: false, exportsHint: '', sourceKeys: [] } as const;

/**
 * Search text that means the text itself: one quoted phrase, so a leading -, an OR or a quote in a
 * label is read as part of it, never as an operator. Its quotes (as the search reads them, after
 * NFKC: a full-width quote is one too) become spaces, which a phrase matches like any punctuation.
 */
export function phraseQuery(text: string): string {
  return `"${text.normalize('NFKC').replaceAll('"', ' ')}"`;
}

/** The field a label names: a work's model, or its creator. */
export type LabelField = 'model' | 'author';

/** How many records of the whole archive have this exact label (case aside, as the filters match); 0 for a value no filter takes. */
export async function recordsWithLabel(context: ReadContext, field: LabelField, label: string, lang: Lang): Promise<number> {
  try {
    return (await listSpecimens(context, parseSearchParams({ [field]: [label], limit: 1, lang }, 'specimens', OWN_SEARCH), 'specimens')).total;
  } catch (error) {
    if (error instanceof ProblemError) return 0;
    throw error;
  }
}

/** How many of the records that mention a text carry each label. */
export interface Mentions {
  /** Each label with the number of records mentioning the text that carry it, most first. */
  labels: [label: string, records: number][];
  /** Whether there may be more labels than `labels` holds (a facet counts its top 100; creators are read from one page). */
  more: boolean;
}

/** Records whose creators are read for a creator no record has: one page, the most a list gives. */
const CREATOR_PAGE = 50;

/**
 * The labels (model labels, or creators) of the records that mention `text` anywhere in their
 * text, with how many of those records carry each; undefined when `text` cannot be searched.
 * Model labels are the model facet of that search (its top 100); creators, which have no facet,
 * are counted over its first 50 records.
 */
export async function labelsMentioning(context: ReadContext, field: LabelField, text: string, lang: Lang): Promise<Mentions | undefined> {
  const search = field === 'model' ? { facets: ['model'], limit: 1 } : { limit: CREATOR_PAGE };
  let found;
  try {
    found = await listSpecimens(context, parseSearchParams({ q: phraseQuery(text), ...search, lang }, 'specimens', OWN_SEARCH), 'specimens');
  } catch (error) {
    if (error instanceof ProblemError) return undefined;
    throw error;
  }
  if (field === 'model') {
    const labels = Object.entries(found.facets?.model ?? {});
    return { labels, more: labels.length >= 100 };
  }
  const counts = new Map<string, number>();
  for (const record of found.items) counts.set(record.author, (counts.get(record.author) ?? 0) + 1);
  return { labels: [...counts].sort(([, a], [, b]) => b - a), more: found.total > found.items.length };
}

/** Labels with their counts, the first `shown` of them, and how many more there are ("and 2 more", "and more" past what was counted). */
export function someLabels(labels: readonly [string, number][], shown: number, more: boolean): string {
  const named = labels.slice(0, shown).map(([label, count]) => `${oneLine(label)} (${count})`).join(', ');
  if (more) return `${named} and more`;
  return labels.length > shown ? `${named} and ${labels.length - shown} more` : named;
}
