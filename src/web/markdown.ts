import type { LocalizedRecord } from '../domain/localize.ts';
import type { Lang } from '../domain/record.ts';
import { TEXT } from './i18n.ts';

/** Markdown-escape text: inline syntax characters anywhere, block markers at the start of a line. */
function escapeMarkdown(text: string): string {
  return text
    .replace(/([\\`*_[\]<>|])/g, '\\$1')
    .replace(/^(\s*)(#|>|[-+](?=\s)|\d+(?=\.\s))/gm, '$1\\$2');
}

/** The Markdown twin of a record page. */
export function recordMarkdown(record: LocalizedRecord, lang: Lang): string {
  const text = TEXT[lang];
  const lines = [
    `# ${escapeMarkdown(record.title)}`,
    '',
    escapeMarkdown(record.notes),
    '',
    `- ${text.model}: ${escapeMarkdown(record.model)}`,
    `- ${text.author}: ${escapeMarkdown(record.author)}`,
    `- ${text.date}: ${record.date}`,
    `- ${text.format}: ${text.formats[record.format]}`,
    `- ${text.kind}: ${text.kinds[record.kind]}`,
    `- ${text.source}: <${record.sourceUrl}>`,
    `- ${text.promptCategory}: ${escapeMarkdown(record.promptCategory)}`,
    `- ${text.mediaStatus}: ${text.mediaStatuses[record.mediaStatus]}`,
    `- ${text.updated}: ${record.updated}`,
    `- id: \`${record.id}\``,
    `- url: <${record.url}>`,
  ];
  if (record.prompt !== undefined) lines.push('', `## ${text.prompt}`, '', ...record.prompt.split('\n').map((line) => `> ${escapeMarkdown(line)}`));
  for (const media of record.media) lines.push('', `![${escapeMarkdown(record.title)}](${media.url})`);
  lines.push('', `## ${text.citation}`, '', escapeMarkdown(record.citation), '', `_${text.untrusted}_`, '');
  return lines.join('\n');
}
