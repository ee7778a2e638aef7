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
 * A title quoted inside the citation's own marks, its marks of the same kind made the inner kind,
 * as each language nests quotations: double quotes within double become single (`"A 'b' c"`), and
 * title marks within 《》 become 〈〉 (`《论〈画〉》`). Otherwise `"A "b" c"` leaves the title's end
 * unclear.
 */
function nestedTitle(lang: Lang, title: string): string {
  if (lang === 'zh') return title.replace(/《/g, '〈').replace(/》/g, '〉');
  return title.replace(/"/g, "'").replace(/“/g, '‘').replace(/”/g, '’');
}

/** What a citation says before the author: the quoted title and its comma. */
function citationLead(lang: Lang, title: string): string {
  return lang === 'zh' ? `《${nestedTitle(lang, title)}》，` : `"${nestedTitle(lang, title)}", `;
}

/**
 * The spec's citation format: work title, original creator and date, original URL; archived in
 * the archive, localized record URL, compilation date.
 */
export function citationText(lang: Lang, work: CitationInput): string {
  const lead = citationLead(lang, work.title);
  if (lang === 'zh') {
    return `${lead}${work.author}，${work.date}，${work.sourceUrl}；收录于${ARCHIVE_NAME.zh}，${work.url}，编纂日期 ${work.updated}。`;
  }
  return `${lead}${work.author}, ${work.date}, ${work.sourceUrl}; archived in the ${ARCHIVE_NAME.en}, ${work.url}, compiled ${work.updated}.`;
}

/** Where the author's name begins in the citation of a work with this title (a page marks the name's language there). */
export function citationAuthorStart(lang: Lang, title: string): number {
  return citationLead(lang, title).length;
}
