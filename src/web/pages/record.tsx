import type { VNode } from 'preact';
import type { LocalizedRecord } from '../../domain/localize.ts';
import type { Lang } from '../../domain/record.ts';
import { thumbnailDimensions } from '../../media/thumbnail-size.ts';
import { langPrefix, TEXT } from '../i18n.ts';
import { Layout } from '../layout.tsx';
import type { PreviewImage } from '../layout.tsx';
import { listParameter } from './home.tsx';
import { promptCategoryLabel } from '../prompt-categories.ts';
import { jsonLdText, recordJsonLd } from '../structured-data.ts';
import { languageByScript } from '../text-language.ts';
import { citationAuthorStart } from '../../domain/citation.ts';

/** The WebP thumbnail of the first preview, as link previews show it. */
function previewImage(record: LocalizedRecord): PreviewImage | undefined {
  const first = record.media[0];
  if (!record.thumbnail || !first) return undefined;
  return { url: record.thumbnail, ...thumbnailDimensions(first.width, first.height), alt: record.title, type: 'image/webp' };
}

/** A preview stored in a format that can hold an animation (GIF, WebP): the publisher keeps such previews as they are. */
function mayMove(url: string): boolean {
  return /\.(gif|webp)$/i.test(new URL(url).pathname);
}

/**
 * A record page: preview, every fact, the source link, the prompt when recorded, the citation. A
 * preview that may be animated is shown as its still (`stills`, the first frame) with a button
 * that plays it (site.js) and a link to the file as stored, so that nothing moves until the reader
 * asks (WCAG 2.2.2), with or without scripts.
 */
export function RecordPage({ record, stills = [], lang, otherLanguagePath, baseUrl, sourceLabel }: { record: LocalizedRecord; stills?: readonly (string | null)[]; lang: Lang; otherLanguagePath: string; baseUrl: string; sourceLabel: string }) {
  const text = TEXT[lang];
  // The model and the author lead to the other works the archive holds under the same label.
  const more = (name: 'model' | 'author', value: string): string => `${langPrefix(lang)}/?${name}=${encodeURIComponent(listParameter([value]))}`;
  // An author's name is written as its source gives it, in no recorded language: it is marked with the one its letters show, or as unknown.
  const author = <span lang={languageByScript(record.author)}>{record.author}</span>;
  // The citation marks the name the same way, where it stands (after the quoted title).
  const authorAt = citationAuthorStart(lang, record.title);
  const citation = record.citation.startsWith(record.author, authorAt)
    ? [record.citation.slice(0, authorAt), author, record.citation.slice(authorAt + record.author.length)]
    : [record.citation];
  const facts: [string, string | VNode, string?][] = [
    [text.model, record.model, more('model', record.model)],
    [text.author, author, more('author', record.author)],
    [text.date, record.date],
    [text.format, text.formats[record.format]],
    [text.kind, text.kinds[record.kind]],
    [text.source, sourceLabel],
    [text.promptCategory, promptCategoryLabel(record.promptCategory, lang)],
    [text.mediaStatus, text.mediaStatuses[record.mediaStatus]],
    [text.updated, record.updated],
  ];
  const image = previewImage(record);
  const head = (
    <>
      <meta property="article:published_time" content={record.updated} />
      <meta property="article:author" content={record.author} />
      <link rel="alternate" type="application/json" href={`/api/v1/specimens/${record.id}?lang=${lang}`} />
      <link rel="alternate" type="text/markdown" href={record.markdown} />
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(recordJsonLd(record, lang, baseUrl)) }} />
    </>
  );
  return (
    <Layout
      lang={lang}
      title={record.title}
      otherLanguagePath={otherLanguagePath}
      description={record.notes.slice(0, 200)}
      current={{ section: record.kind === 'timeline' ? 'timeline' : 'gallery', inside: true }}
      preview={{ type: 'article', ...(image ? { image } : {}) }}
      head={head}
    >
      <article class="record">
        <header>
          <p class="record-id">{record.id}</p>
          <h1>{record.title}</h1>
        </header>
        <div class="record-body">
          <div class="record-media">
            {record.media.length ? (
              record.media.map((media, index) => {
                const alt = index === 0 ? record.title : `${record.title} (${index + 1})`;
                const still = mayMove(media.url) ? stills[index] : null;
                const id = `preview-${index + 1}`;
                // Sized as the preview, not the still (at most 480 px): the still fills the preview's room.
                return (
                  <>
                    <figure class="plate">
                      <img src={still ?? media.url} id={id} alt={alt} width={media.width} height={media.height} loading={index === 0 ? 'eager' : 'lazy'} {...(still ? { 'data-animated-src': media.url } : {})} />
                    </figure>
                    {still ? (
                      <p class="motion">
                        {/* Hidden until site.js shows it: without the script, the link is the way to the moving file. */}
                        <button type="button" class="play" aria-pressed="false" data-play={id} hidden>
                          <span class="play-icon" aria-hidden="true"></span>
                          {text.playAnimation}
                        </button>
                        <a href={media.url}>{text.animatedOriginal}</a>
                      </p>
                    ) : null}
                  </>
                );
              })
            ) : (
              <figure class={`plate plate-${record.format}`}>
                <span class="plate-empty">{text.noPreview}</span>
              </figure>
            )}
          </div>
          <div class="record-text">
            <p class="notes">{record.notes}</p>
            {/* A heading, so that a screen reader finds the facts as it finds the prompt and the citation; the list shows what it is. */}
            <h2 class="visually-hidden">{text.facts}</h2>
            <dl class="facts">
              {facts.map(([label, value, href]) => (
                <>
                  <dt>{label}</dt>
                  <dd>{href ? <a href={href}>{value}</a> : value}</dd>
                </>
              ))}
            </dl>
            {record.prompt !== undefined ? (
              <section class="prompt">
                <h2>{text.prompt}</h2>
                {/* The prompt as the source gave it: its language is unknown (lang=""), not the page's. */}
                <blockquote lang="">{record.prompt}</blockquote>
              </section>
            ) : null}
            <p class="source-link">
              <a href={record.sourceUrl} rel="noopener noreferrer external">{text.originalSource}<span aria-hidden="true"> ↗</span></a>
              {/* The link is kept (it is where the work was published), but a reader should know it leads nowhere now. */}
              {record.mediaStatus === 'deleted-source' ? <span class="source-gone">{text.sourceGone}</span> : null}
            </p>
            <section class="citation">
              <h2>{text.citation}</h2>
              <p id="citation-text">{citation}</p>
              {/* Hidden until site.js shows it: without the script, the button would do nothing. */}
              <button type="button" class="copy" data-copy-target="citation-text" data-copy-status="copy-status" data-copied-label={text.copied} data-failed-label={text.copyFailed} hidden>{text.copy}</button>
              {/* Where site.js says how the copy went, for screen readers (a status is announced when its text changes); shown only when it failed. */}
              <p id="copy-status" class="copy-status visually-hidden" role="status"></p>
            </section>
            <p class="alternates">
              <a href={`/api/v1/specimens/${record.id}?lang=${lang}`} type="application/json">{text.jsonRecord}</a> · <a href={record.markdown} type="text/markdown">{text.markdownRecord}</a>
            </p>
          </div>
        </div>
      </article>
    </Layout>
  );
}
