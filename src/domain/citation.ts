import type { Lang } from './record.ts';

/** The archive's name as it appears in citations and pages. */
export const ARCHIVE_NAME: Record<Lang, string> = {
  zh: '模型作品档案馆',
  en: 'Model Works Archive',
};

export interface CitationInput {
  title: string;
  author: string;
  date: string;
  sourceUrl: string;
  url: string;
  updated: string;
}

/**
 * The spec's citation format: work title, original creator and date, original URL; archived in
 * the archive, localized record URL, compilation date.
 */
export function citationText(lang: Lang, work: CitationInput): string {
  if (lang === 'zh') {
    return `《${work.title}》，${work.author}，${work.date}，${work.sourceUrl}；收录于${ARCHIVE_NAME.zh}，${work.url}，编纂日期 ${work.updated}。`;
  }
  return `"${work.title}", ${work.author}, ${work.date}, ${work.sourceUrl}; archived in the ${ARCHIVE_NAME.en}, ${work.url}, compiled ${work.updated}.`;
}
