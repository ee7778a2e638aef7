/**
 * What an empty list result says besides its count: why a search may have matched nothing and how
 * to widen it, so an agent does not retry blindly. Worked out only when a list is empty (a few
 * more searches), so other searches cost nothing more.
 */
import { oneLine } from '../domain/localize.ts';
import type { SearchParams } from '../domain/specimens.ts';
import type { ReadContext } from '../domain/specimens.ts';
import { labelsMentioning, recordsWithLabel, someLabels } from './label-lookup.ts';
import type { LabelField } from './label-lookup.ts';

/** The asked values looked up at most: each is a search, and an agent rarely asks more than a few. */
const LOOKED_UP = 5;

/** Labels named in a hint at most. */
const LABELS_SHOWN = 5;

/** The filters other than model and author a hint may tell to drop (since is left out: nothing compiled since a day is the usual answer of a sync). */
const OTHER_FILTERS = ['source', 'format', 'kind', 'year', 'from', 'to'] as const;

/** The first model or author value no record has, with the field it was asked in. */
async function missingLabel(context: ReadContext, params: SearchParams): Promise<{ field: LabelField; value: string } | undefined> {
  const asked = [...(params.model ?? []).map((value) => ({ field: 'model' as const, value })), ...(params.author ?? []).map((value) => ({ field: 'author' as const, value }))];
  for (const label of asked.slice(0, LOOKED_UP)) if ((await recordsWithLabel(context, label.field, label.value, params.lang)) === 0) return label;
  return undefined;
}

/** A line saying no record has this label, and the labels of records that mention it. */
async function missingLabelLine(context: ReadContext, { field, value }: { field: LabelField; value: string }, lang: SearchParams['lang']): Promise<string> {
  const none = `No record has the ${field} "${oneLine(value)}": ${field} matches whole labels, case aside.`;
  const facet = field === 'model' ? ' facets:["model"] lists the labels there are.' : '';
  const mentions = await labelsMentioning(context, field, value, lang);
  if (!mentions?.labels.length) return `${none}${facet}`;
  const whose = field === 'model' ? 'Labels' : 'Creators';
  return `${none} ${whose} of the records that mention it, with their number: ${someLabels(mentions.labels, LABELS_SHOWN, mentions.more)}.${facet}`;
}

/** What an empty list by sourceUrl says: the address was looked up in every form, so the work is not archived (or was withdrawn). */
const SOURCE_URL_LINE = 'The archive holds no record of the work at that address (any form of it was looked up): it is not archived, or was withdrawn. q finds works by their words.';

/** What q asks of a record: every word of it, so the more words, the fewer records. A rule, not a finding: the filters beside it may be what matched nothing. */
function textLine(q: string): string {
  return q.trim().split(/\s+/).length > 1 ? 'Every word of q must match, small ones such as "by" too: fewer words, or a OR b, widen it.' : 'q matches the records that hold its word, in either language: another word, or a OR b, widens it.';
}

/**
 * One or two lines for an empty list: a model or author no record has, with the labels of records
 * that mention it; else, when filters were asked, that they combine; and what q asks. Undefined
 * when nothing was asked that could be widened.
 */
export async function emptyListHint(context: ReadContext, params: SearchParams): Promise<string | undefined> {
  if (params.sourceUrl !== undefined) return SOURCE_URL_LINE;
  const lines: string[] = [];
  const missing = await missingLabel(context, params);
  if (missing) lines.push(await missingLabelLine(context, missing, params.lang));
  else if (params.model || params.author || OTHER_FILTERS.some((name) => params[name] !== undefined)) {
    lines.push('Filters combine with AND: drop one to widen; facets count each value with its own filter left out.');
  }
  if (params.q?.trim()) lines.push(textLine(params.q));
  return lines.length ? lines.join('\n') : undefined;
}
