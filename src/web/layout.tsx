import type { ComponentChildren } from 'preact';
import { useContext } from 'preact/hooks';
import type { Lang } from '../domain/record.ts';
import { langPrefix, TEXT } from './i18n.ts';
import { SiteAddressContext } from './site-address.ts';
import { LANGUAGE_TAG } from './structured-data.ts';

/** The image a link preview shows. */
export interface PreviewImage {
  url: string;
  width: number;
  height: number;
  alt: string;
  type: string;
}

export interface LayoutProps {
  lang: Lang;
  title: string;
  /** The same page in the other language (path with query). */
  otherLanguagePath: string;
  /**
   * Where the page sits in the main navigation: a section's own page (the gallery, the timeline,
   * the developers page), whose link is marked aria-current="page", or a page inside a section (a
   * record page: `inside`), whose section link is marked aria-current="true", since that link
   * leads to another page than the one read.
   */
  current?: { section: NavSection; inside?: boolean };
  description?: string;
  /** What link previews show: the kind of page (OpenGraph og:type) and its image. */
  preview?: { type: 'website' | 'article'; image?: PreviewImage };
  /** False for pages that must not be indexed (404): no canonical link, robots noindex. */
  indexable?: boolean;
  /**
   * The page's address as the site writes it (a list page: without the parameters it ignores or
   * reads as absent, `/en/` for `/en/?q=&utm_source=x`); the address asked when not given. It is
   * the canonical address when it has no query.
   */
  canonicalPath?: string;
  /** More elements for the head (a record's JSON-LD). */
  head?: ComponentChildren;
  children: ComponentChildren;
}

/** The sections the main navigation links. */
export type NavSection = 'gallery' | 'timeline' | 'developers';

/** OpenGraph locales of the archive languages. */
const OPEN_GRAPH_LOCALE: Record<Lang, string> = { zh: 'zh_CN', en: 'en_US' };

/**
 * The head tags that search engines, feed readers and link previews read: the language
 * alternates (hreflang, absolute), the canonical address, OpenGraph and Twitter card tags.
 * Written when the page's address is known (always, when served).
 */
function DiscoveryTags(props: LayoutProps & { fullTitle: string }) {
  const address = useContext(SiteAddressContext);
  if (!address) return null;
  const other: Lang = props.lang === 'zh' ? 'en' : 'zh';
  const self = `${address.baseUrl}${address.path}`;
  const otherUrl = `${address.baseUrl}${props.otherLanguagePath}`;
  const zhUrl = props.lang === 'zh' ? self : otherUrl;
  const indexable = props.indexable ?? true;
  const canonicalPath = props.canonicalPath ?? address.path;
  const image = props.preview?.image;
  const description = props.description ?? TEXT[props.lang].tagline;
  return (
    <>
      {indexable && !canonicalPath.includes('?') ? <link rel="canonical" href={`${address.baseUrl}${canonicalPath}`} /> : null}
      <link rel="alternate" hreflang={LANGUAGE_TAG[props.lang]} href={self} />
      <link rel="alternate" hreflang={LANGUAGE_TAG[other]} href={otherUrl} />
      <link rel="alternate" hreflang="x-default" href={zhUrl} />
      <meta property="og:site_name" content={TEXT[props.lang].archive} />
      <meta property="og:type" content={props.preview?.type ?? 'website'} />
      <meta property="og:title" content={props.title} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={self} />
      <meta property="og:locale" content={OPEN_GRAPH_LOCALE[props.lang]} />
      <meta property="og:locale:alternate" content={OPEN_GRAPH_LOCALE[other]} />
      {image ? (
        <>
          <meta property="og:image" content={image.url} />
          <meta property="og:image:type" content={image.type} />
          <meta property="og:image:width" content={String(image.width)} />
          <meta property="og:image:height" content={String(image.height)} />
          <meta property="og:image:alt" content={image.alt} />
        </>
      ) : null}
      <meta name="twitter:card" content={image ? 'summary_large_image' : 'summary'} />
      <meta name="twitter:title" content={props.fullTitle} />
      <meta name="twitter:description" content={description} />
      {image ? (
        <>
          <meta name="twitter:image" content={image.url} />
          <meta name="twitter:image:alt" content={image.alt} />
        </>
      ) : null}
    </>
  );
}

/** The frame of every page: head with discovery tags, a link past the header for keyboard readers, header with navigation and language switch, main, footer. */
export function Layout(props: LayoutProps) {
  const text = TEXT[props.lang];
  const prefix = langPrefix(props.lang);
  const other = props.lang === 'zh' ? 'en' : 'zh';
  const fullTitle = props.title === text.archive ? text.archive : `${props.title} · ${text.archive}`;
  const ariaCurrent = (section: NavSection): 'page' | 'true' | undefined => (props.current?.section !== section ? undefined : props.current.inside ? 'true' : 'page');
  return (
    <html lang={LANGUAGE_TAG[props.lang]}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{fullTitle}</title>
        {props.description ? <meta name="description" content={props.description} /> : null}
        {props.indexable === false ? <meta name="robots" content="noindex" /> : null}
        <link rel="stylesheet" href="/assets/site.css" />
        <link rel="icon" href="/assets/icon.svg" type="image/svg+xml" />
        <link rel="alternate" type="application/atom+xml" title={`${text.archive}${text.colon}${text.feedTitle}`} href={`${prefix}/feed.atom`} />
        <DiscoveryTags {...props} fullTitle={fullTitle} />
        <script src="/assets/site.js" defer></script>
        {props.head}
      </head>
      <body>
        <a class="skip-link" href="#content">{text.skipToContent}</a>
        <header class="masthead">
          {/* The link is the archive's name alone: with the tagline inside, a screen reader named it by the whole sentence. */}
          <div class="brand">
            <a class="brand-name" href={`${prefix}/`}>{text.archive}</a>
            <span class="brand-tagline">{text.tagline}</span>
          </div>
          <nav aria-label={props.lang === 'zh' ? '主导航' : 'Main'}>
            <a href={`${prefix}/`} aria-current={ariaCurrent('gallery')}>{text.gallery}</a>
            <a href={`${prefix}/timeline/`} aria-current={ariaCurrent('timeline')}>{text.timeline}</a>
            <a href={`${prefix}/developers/`} aria-current={ariaCurrent('developers')}>{text.developers}</a>
            <a class="lang-switch" href={props.otherLanguagePath} hreflang={LANGUAGE_TAG[other]} lang={LANGUAGE_TAG[other]}>{text.switchTo}</a>
          </nav>
        </header>
        <main id="content">{props.children}</main>
        {/* A reader who clicks a CSV opens it in a spreadsheet: the link is the spreadsheet's variant (byte-order mark, formulas neutralised); programs take the plain file, which the developers page and the guides name. */}
        <footer class="colophon">
          <p>{text.untrusted}</p>
          <p>
            <a href={`${prefix}/data/catalog.json`}>catalog.json</a> · <a href={`${prefix}/data/catalog.csv?excel=1`}>catalog.csv</a> · <a href={`${prefix}/feed.atom`} type="application/atom+xml">{text.feed}</a> · <a href={`${prefix}/llms.txt`}>llms.txt</a> · <a href="/openapi.json">openapi.json</a>
          </p>
        </footer>
      </body>
    </html>
  );
}
