import { ARCHIVE_NAME } from '../domain/citation.ts';
import type { LocalizedRecord } from '../domain/localize.ts';
import type { Format, Lang } from '../domain/record.ts';
import { TEXT, langPrefix } from './i18n.ts';

/** The HTML language tag of each archive language. */
export const LANGUAGE_TAG: Record<Lang, string> = { zh: 'zh-Hans', en: 'en' };

/** Drawings, animations and scenes are visual artworks; games and videos are creative works of another kind. */
const SCHEMA_TYPE: Record<Format, 'VisualArtwork' | 'CreativeWork'> = { svg: 'VisualArtwork', animation: 'VisualArtwork', '3d': 'VisualArtwork', game: 'CreativeWork', video: 'CreativeWork' };

/**
 * The schema.org description of a record page (JSON-LD): the work, its creator and date, its
 * original source (sameAs), its previews, its language, and the archive it is part of.
 */
export function recordJsonLd(record: LocalizedRecord, lang: Lang, baseUrl: string): Record<string, unknown> {
  const type = SCHEMA_TYPE[record.format];
  return {
    '@context': 'https://schema.org',
    '@type': type,
    '@id': record.url,
    url: record.url,
    identifier: record.id,
    name: record.title,
    description: record.notes,
    creator: { '@type': 'Person', name: record.author },
    dateCreated: record.date,
    sameAs: record.sourceUrl,
    inLanguage: LANGUAGE_TAG[lang],
    ...(type === 'VisualArtwork' ? { artform: TEXT[lang].formats[record.format] } : { genre: TEXT[lang].formats[record.format] }),
    keywords: [record.model, TEXT[lang].formats[record.format]],
    ...(record.media.length ? { image: record.media.map((media) => ({ '@type': 'ImageObject', contentUrl: media.url, width: media.width, height: media.height })) } : {}),
    ...(record.thumbnail ? { thumbnailUrl: record.thumbnail } : {}),
    isPartOf: { '@type': 'Collection', name: ARCHIVE_NAME[lang], url: `${baseUrl}${langPrefix(lang)}/` },
  };
}

/** JSON for a `<script type="application/ld+json">` block: `<` is escaped so record text can never close the element. */
export function jsonLdText(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}
