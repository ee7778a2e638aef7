import { languageByScript } from './text-language.ts';
import { ARCHIVE_NAME } from '../domain/citation.ts';
import type { LocalizedRecord } from '../domain/localize.ts';
import type { Lang } from '../domain/record.ts';
import type { SourceTable } from '../domain/sources.ts';
import { thumbnailDimensions } from '../media/thumbnail-size.ts';
import { langPrefix, TEXT } from './i18n.ts';
import { LANGUAGE_TAG } from './structured-data.ts';
import { xmlText } from './xml.ts';

/** Works in a feed: the newest this many. */
export const FEED_SIZE = 50;

/** A compilation date (YYYY-MM-DD) as an RFC 3339 timestamp, as Atom requires. */
function timestamp(date: string): string {
  return `${date}T00:00:00Z`;
}

/** The entry's HTML content: the thumbnail, the notes, the facts, the source link and the citation. */
function entryHtml(record: LocalizedRecord, lang: Lang, sources: SourceTable): string {
  const text = TEXT[lang];
  const parts: string[] = [];
  const first = record.media[0];
  if (record.thumbnail && first) {
    const { width, height } = thumbnailDimensions(first.width, first.height);
    parts.push(`<p><a href="${xmlText(record.url)}"><img src="${xmlText(record.thumbnail)}" alt="${xmlText(record.title)}" width="${width}" height="${height}"/></a></p>`);
  }
  parts.push(`<p>${xmlText(record.notes)}</p>`);
  // The author's name is as the source wrote it: marked by its script, as on the record pages (languageByScript).
  const facts: [string, string][] = [
    [text.model, xmlText(record.model)],
    [text.author, `<span lang="${languageByScript(record.author)}">${xmlText(record.author)}</span>`],
    [text.date, xmlText(record.date)],
    [text.format, xmlText(text.formats[record.format])],
  ];
  parts.push(`<ul>${facts.map(([label, html]) => `<li>${xmlText(label)}${text.colon}${html}</li>`).join('')}<li><a href="${xmlText(record.sourceUrl)}">${xmlText(`${text.originalSource}${text.colon}${sources.label(record.source, lang)}`)}</a></li></ul>`);
  parts.push(`<p>${xmlText(text.citation)}${text.colon}${xmlText(record.citation)}</p>`);
  return parts.join('');
}

function entryXml(record: LocalizedRecord, lang: Lang, sources: SourceTable): string {
  const text = TEXT[lang];
  const updated = timestamp(record.updated);
  const first = record.media[0];
  const enclosure = record.thumbnail && first ? `\n    <link rel="enclosure" type="image/webp" href="${xmlText(record.thumbnail)}"/>` : '';
  return `  <entry>
    <id>${xmlText(record.url)}</id>
    <title type="text">${xmlText(record.title)}</title>
    <link rel="alternate" type="text/html" href="${xmlText(record.url)}"/>
    <link rel="alternate" type="text/markdown" href="${xmlText(record.markdown)}"/>
    <link rel="related" href="${xmlText(record.sourceUrl)}"/>${enclosure}
    <published>${updated}</published>
    <updated>${updated}</updated>
    <author xml:lang="${languageByScript(record.author)}"><name>${xmlText(record.author)}</name></author>
    <category term="${xmlText(record.format)}" label="${xmlText(text.formats[record.format])}"/>
    <summary type="text">${xmlText(record.notes)}</summary>
    <content type="html">${xmlText(entryHtml(record, lang, sources))}</content>
  </entry>
`;
}

/**
 * The Atom 1.0 feed (RFC 4287) of newly published works in one language: the newest records
 * first, each entry identified by its permanent page address. `updated` is the newest entry's
 * date, or the catalog's compilation date when there is none. Sources are named by their labels in `sources`.
 */
export function atomFeed(lang: Lang, baseUrl: string, records: readonly LocalizedRecord[], catalogUpdated: string | null, sources: SourceTable): string {
  const text = TEXT[lang];
  const prefix = langPrefix(lang);
  const other: Lang = lang === 'zh' ? 'en' : 'zh';
  const self = `${baseUrl}${prefix}/feed.atom`;
  const newest = records.reduce<string | null>((latest, record) => (latest === null || record.updated > latest ? record.updated : latest), null);
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${LANGUAGE_TAG[lang]}">
  <id>${xmlText(self)}</id>
  <title type="text">${xmlText(`${ARCHIVE_NAME[lang]}${text.colon}${text.feedTitle}`)}</title>
  <subtitle type="text">${xmlText(text.feedSubtitle)}</subtitle>
  <updated>${timestamp(newest ?? catalogUpdated ?? '2015-01-01')}</updated>
  <link rel="self" type="application/atom+xml" href="${xmlText(self)}"/>
  <link rel="alternate" type="text/html" hreflang="${LANGUAGE_TAG[lang]}" href="${xmlText(`${baseUrl}${prefix}/`)}"/>
  <link rel="alternate" type="application/atom+xml" hreflang="${LANGUAGE_TAG[other]}" href="${xmlText(`${baseUrl}${langPrefix(other)}/feed.atom`)}"/>
  <author><name>${xmlText(ARCHIVE_NAME[lang])}</name><uri>${xmlText(`${baseUrl}${prefix}/`)}</uri></author>
  <icon>${xmlText(`${baseUrl}/assets/icon.svg`)}</icon>
${records.map((record) => entryXml(record, lang, sources)).join('')}</feed>
`;
}
