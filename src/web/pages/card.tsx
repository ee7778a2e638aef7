import type { LocalizedRecord } from '../../domain/localize.ts';
import type { Lang } from '../../domain/record.ts';
import { thumbnailDimensions } from '../../media/thumbnail-size.ts';
import { langPrefix, TEXT } from '../i18n.ts';

/**
 * One work in a grid: thumbnail (lazy, WebP), title, model, date and format, and a timeline
 * record's mark where works of both kinds are listed (`marksTimeline`). The thumbnail's alt is
 * empty: the link already holds the title, and a screen reader would otherwise say it twice.
 */
export function Card({ record, lang, marksTimeline = true }: { record: LocalizedRecord; lang: Lang; marksTimeline?: boolean }) {
  const text = TEXT[lang];
  const href = `${langPrefix(lang)}/specimens/${record.id}/`;
  // The thumbnail is the first preview's, fitted into 480 px: its size, not the preview's, reserves the image's room.
  const preview = record.media[0];
  const thumbnailSize = preview ? thumbnailDimensions(preview.width, preview.height) : undefined;
  return (
    <li class="card">
      <a href={href}>
        <figure class={`plate plate-${record.format}`}>
          {record.thumbnail ? (
            <img src={record.thumbnail} alt="" loading="lazy" decoding="async" width={thumbnailSize?.width} height={thumbnailSize?.height} />
          ) : (
            <span class="plate-empty" aria-hidden="true">{text.formats[record.format]}</span>
          )}
        </figure>
        {/* A heading, so that a screen reader moves from work to work by heading as through any list of articles. */}
        <h2 class="card-title">{record.title}</h2>
      </a>
      <span class="card-meta">
        <span>{record.model}</span>
        <span>{record.date}</span>
        <span class="tag">{text.formats[record.format]}</span>
        {/* On the timeline every entry is one: the mark would only repeat the page's name. */}
        {record.kind === 'timeline' && marksTimeline ? <span class="tag tag-timeline">{text.kinds.timeline}</span> : null}
      </span>
    </li>
  );
}
