/**
 * The MCP prompts: ready-made requests a user can pick in a client. Each answers from the
 * archive at the time it is asked (the record is embedded as a resource) and tells the model
 * which tool call checks or extends the answer.
 */
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import { oneLine } from '../domain/localize.ts';
import { isLang } from '../domain/record.ts';
import type { Lang } from '../domain/record.ts';
import { listSpecimens } from '../domain/specimens.ts';
import type { ReadContext } from '../domain/specimens.ts';
import { ProblemError } from '../errors.ts';
import { parseSearchParams } from '../validation/read-params.ts';
import { labelsMentioning, OWN_SEARCH } from './label-lookup.ts';
import type { Mentions } from './label-lookup.ts';
import { PROMPT_TEXT } from './prompt-text.ts';
import type { PromptText } from './prompt-text.ts';
import { ProtocolError } from './protocol-error.ts';
import { missingRecordMessage, recordResource } from './resources.ts';

export const PROMPTS: Prompt[] = [
  {
    name: 'cite_work',
    title: 'Cite a work',
    description: 'Cite one archive record in the archive citation format, keeping the original source link.',
    arguments: [
      { name: 'id', description: 'Record id, e.g. from search_specimens.', required: true },
      { name: 'lang', description: 'zh (default) or en.', required: false },
    ],
  },
  {
    name: 'first_work_of_model',
    title: 'Find the first work of a model',
    description: 'The earliest archived work made by a model label, with the call that checks it.',
    arguments: [
      { name: 'model', description: 'Model label, e.g. GPT-4o (exact, case-insensitive).', required: true },
      { name: 'lang', description: 'zh (default) or en.', required: false },
    ],
  },
];

function argument(args: Record<string, string> | undefined, name: string): string {
  const value = args?.[name]?.trim();
  if (!value) throw new ProtocolError(ErrorCode.InvalidParams, `The prompt needs the argument "${name}".`);
  return value;
}

function language(args: Record<string, string> | undefined): Lang {
  const value = args?.lang?.trim() || 'zh';
  if (!isLang(value)) throw new ProtocolError(ErrorCode.InvalidParams, 'lang must be zh or en.');
  return value;
}

async function citeWork(context: ReadContext, args: Record<string, string> | undefined): Promise<GetPromptResult> {
  const id = argument(args, 'id');
  const lang = language(args);
  const resource = await recordResource(context, id, lang);
  if (!resource) throw new ProtocolError(ErrorCode.InvalidParams, await missingRecordMessage(context, id));
  const text = PROMPT_TEXT[lang];
  return {
    description: text.citeDescription(id),
    messages: [
      { role: 'user', content: { type: 'text', text: [text.cite, text.untrusted].join(text.space) } },
      { role: 'user', content: { type: 'resource', resource } },
    ],
  };
}

/** Labels the prompt names at most when the asked one has no record. */
const LABELS_SHOWN = 10;

/** A developer's model id ends in its snapshot's date (gpt-4o-2024-08-06, claude-3-5-sonnet-20240620); sources name the model without it. */
const DATE_SUFFIX = /-(?:\d{4}-\d{2}-\d{2}|\d{8})$/;

/**
 * The labels of the records that mention a text, as the prompt lists them: the first ten "of N",
 * each with how many of those records carry it, which is not the label's total (a label's other
 * records need not mention the text).
 */
function mentioningLabels(text: PromptText, mentioned: string, { labels, more }: Mentions): string {
  const shown = labels.slice(0, LABELS_SHOWN).map(([label, records]): [string, number] => [oneLine(label), records]);
  return text.mentioning(oneLine(mentioned), { shown, total: labels.length, more });
}

/**
 * For a label no record has exactly ("Claude"): the labels of records that mention it, with how
 * many of those records carry each, so the agent can ask again with a label that exists rather
 * than search blindly. A developer's id that nothing mentions (gpt-4o-2024-08-06) is looked up
 * once more without its date.
 */
async function labelsMentioningText(context: ReadContext, model: string, lang: Lang): Promise<string> {
  const text = PROMPT_TEXT[lang];
  const say = (...sentences: string[]): string => [text.noLabel(oneLine(model)), ...sentences].join(text.space);
  const related = await labelsMentioning(context, 'model', model, lang);
  if (!related) return say(text.keptAsWritten);
  if (related.labels.length) return say(mentioningLabels(text, model, related));
  const undated = model.replace(DATE_SUFFIX, '');
  const withoutDate = undated !== model && undated !== '' ? await labelsMentioning(context, 'model', undated, lang) : undefined;
  if (!withoutDate?.labels.length) return say(text.notMentioned);
  return say(text.lookedUpWithoutDate, mentioningLabels(text, undated, withoutDate));
}

/**
 * How the prompt names the model: the label as the archive stores it (the earliest record's, as
 * its source wrote it), and what was asked when that differs, since labels match whatever the case.
 * `label` is exact, for the call that checks it; `shown` and `quoted` are one line, for the text.
 */
function storedLabel(text: PromptText, asked: string, stored: string | undefined): { label: string; shown: string; quoted: string } {
  if (stored === undefined || stored === asked) return { label: asked, shown: oneLine(asked), quoted: text.quoted(oneLine(asked)) };
  return { label: stored, shown: oneLine(stored), quoted: text.quoted(oneLine(stored), oneLine(asked)) };
}

/**
 * How many records of each kind a label has, in words: "3 gallery records and 1 timeline record".
 * A work has a gallery record, and the model's first also a timeline record, so the total alone
 * counted that work twice (the attribution audit read "5 records" for 3 works).
 */
function recordsByKind(text: PromptText, counts: Record<string, number>): string {
  return text.recordsByKind(Object.entries(counts).filter(([, count]) => count > 0));
}

async function firstWorkOfModel(context: ReadContext, args: Record<string, string> | undefined): Promise<GetPromptResult> {
  const model = argument(args, 'model');
  const lang = language(args);
  let params;
  try {
    params = parseSearchParams({ model: [model], sort: 'oldest', limit: 1, facets: ['kind'], lang }, 'specimens', OWN_SEARCH);
  } catch (error) {
    if (error instanceof ProblemError) throw new ProtocolError(ErrorCode.InvalidParams, `model ${error.options.errors?.[0]?.message ?? 'is invalid'}.`);
    throw error;
  }
  const first = await listSpecimens(context, params, 'specimens');
  const record = first.items[0];
  const text = PROMPT_TEXT[lang];
  const { label, shown, quoted } = storedLabel(text, model, record?.model);
  const call = JSON.stringify({ model: [label], sort: 'oldest', limit: 5, lang });
  const resource = record && (await recordResource(context, record.id, lang));
  const found = record ? text.found(recordsByKind(text, first.facets?.kind ?? {}), quoted, record.date, record.id, call) : await labelsMentioningText(context, model, lang);
  return {
    description: text.firstDescription(shown),
    messages: [
      { role: 'user', content: { type: 'text', text: [text.firstQuestion(shown), found, text.otherModels, text.untrusted].join(text.space) } },
      ...(resource ? [{ role: 'user' as const, content: { type: 'resource' as const, resource } }] : []),
    ],
  };
}

/** The messages of one prompt; an unknown prompt or a missing argument is an InvalidParams error. */
export async function getPrompt(context: ReadContext, name: string, args: Record<string, string> | undefined): Promise<GetPromptResult> {
  if (name === 'cite_work') return citeWork(context, args);
  if (name === 'first_work_of_model') return firstWorkOfModel(context, args);
  throw new ProtocolError(ErrorCode.InvalidParams, `Unknown prompt "${name.slice(0, 100)}". Prompts: ${PROMPTS.map((prompt) => prompt.name).join(', ')}.`);
}
