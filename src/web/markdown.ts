import type { LocalizedRecord } from '../domain/localize.ts';
import type { Lang } from '../domain/record.ts';
import { TEXT } from './i18n.ts';
import { promptCategoryLabel } from './prompt-categories.ts';

/** A character Markdown would read as the start of markup here, judged by its neighbours in the text. */
function startsMarkup(text: string, at: number): boolean {
  const char = text[at] ?? '';
  const before = text[at - 1] ?? '\n';
  const after = text[at + 1] ?? '\n';
  switch (char) {
    case '\\': return /[!-/:-@[-`{-~\n]/.test(after); // an escape, or a hard line break at the end of a line
    case '_': return !(/[\p{L}\p{N}]/u.test(before) && /[\p{L}\p{N}]/u.test(after)); // inside a word it never emphasizes
    case '*':
    case '~': return !(/\s/.test(before) && /\s/.test(after)); // between spaces it neither opens nor closes
    case '<': return /[A-Za-z/!?]/.test(after); // an autolink, an HTML tag, comment or declaration
    case '&': return /^&(#\d{1,7}|#[xX][\da-fA-F]{1,6}|[A-Za-z][A-Za-z\d]{1,31});/.test(text.slice(at)); // a character reference
    case '`':
    case '[':
    case ']': // would end an image's alt text early, so that the rest of a title became its address
    case '|': return true;
    default: return false;
  }
}

/**
 * Markdown-escape text with as few backslashes as keep it text: a character is escaped only where
 * Markdown would read it as markup (`@demo_mira`, `a < b` and `R&D` stay as written; `<svg>` and
 * `*bold*` do not), and block markers at the start of a line.
 */
function escapeMarkdown(text: string): string {
  let inline = '';
  for (let at = 0; at < text.length; at++) inline += startsMarkup(text, at) ? `\\${text[at]}` : text[at];
  return inline
    .replace(/^([ \t]*)([#>+=*-])/gm, '$1\\$2')
    .replace(/^([ \t]*\d+)([.)])/gm, '$1\\$2')
    .replace(/(\s)(#+)(?=[ \t]*$)/gm, '$1\\$2');
}

/** Text that must stay on its line (a heading, a list item, an image's alt text): its line breaks as spaces, then escaped. */
function escapeLine(text: string): string {
  return escapeMarkdown(text.replace(/[\r\n\u2028\u2029]+/g, ' '));
}

/**
 * Text given literally, as a fenced block: its fence is longer than any run of backticks in it, so
 * nothing inside needs escaping and an agent copying the lines gets the text exactly.
 */
function literalBlock(text: string): string[] {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return [`${fence}text`, text, fence];
}

/**
 * The Markdown twin of a record page. Prose is escaped only where Markdown needs it; what an agent
 * must copy exactly is given literally: links in angle brackets, the id in a code span, the
 * citation in a fenced block.
 */
export function recordMarkdown(record: LocalizedRecord, lang: Lang): string {
  const text = TEXT[lang];
  const lines = [
    `# ${escapeLine(record.title)}`,
    '',
    escapeMarkdown(record.notes),
    '',
    `- ${text.model}${text.colon}${escapeLine(record.model)}`,
    `- ${text.author}${text.colon}${escapeLine(record.author)}`,
    `- ${text.date}${text.colon}${record.date}`,
    `- ${text.format}${text.colon}${text.formats[record.format]}`,
    `- ${text.kind}${text.colon}${text.kinds[record.kind]}`,
    `- ${text.originalSource}${text.colon}<${record.sourceUrl}>`,
    `- ${text.promptCategory}${text.colon}${escapeLine(promptCategoryLabel(record.promptCategory, lang))}`,
    `- ${text.mediaStatus}${text.colon}${text.mediaStatuses[record.mediaStatus]}`,
    `- ${text.updated}${text.colon}${record.updated}`,
    `- id${text.colon}\`${record.id}\``,
    `- url${text.colon}<${record.url}>`,
  ];
  if (record.prompt !== undefined) lines.push('', `## ${text.prompt}`, '', ...record.prompt.split('\n').map((line) => `> ${escapeMarkdown(line)}`));
  for (const media of record.media) lines.push('', `![${escapeLine(record.title)}](${media.url})`);
  lines.push('', `## ${text.citation}`, '', ...literalBlock(record.citation), '', `_${text.untrusted}_`, '');
  return lines.join('\n');
}
