import type { ComponentChildren } from 'preact';
import type { Lang } from '../domain/record.ts';
import { langPrefix, TEXT } from './i18n.ts';

export interface LayoutProps {
  lang: Lang;
  title: string;
  /** The same page in the other language (path with query). */
  otherLanguagePath: string;
  active?: 'gallery' | 'timeline' | 'developers';
  description?: string;
  children: ComponentChildren;
}

/** The frame of every page: header with navigation and language switch, main, footer. */
export function Layout(props: LayoutProps) {
  const text = TEXT[props.lang];
  const prefix = langPrefix(props.lang);
  const other = props.lang === 'zh' ? 'en' : 'zh';
  return (
    <html lang={props.lang === 'zh' ? 'zh-Hans' : 'en'}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title === text.archive ? text.archive : `${props.title} · ${text.archive}`}</title>
        {props.description ? <meta name="description" content={props.description} /> : null}
        <link rel="stylesheet" href="/assets/site.css" />
        <link rel="icon" href="/assets/icon.svg" type="image/svg+xml" />
        <link rel="alternate" hreflang={other === 'zh' ? 'zh-Hans' : 'en'} href={props.otherLanguagePath} />
        <script src="/assets/site.js" defer></script>
      </head>
      <body>
        <header class="masthead">
          <a class="brand" href={`${prefix}/`}>
            <span class="brand-name">{text.archive}</span>
            <span class="brand-tagline">{text.tagline}</span>
          </a>
          <nav aria-label={props.lang === 'zh' ? '主导航' : 'Main'}>
            <a href={`${prefix}/`} aria-current={props.active === 'gallery' ? 'page' : undefined}>{text.gallery}</a>
            <a href={`${prefix}/timeline/`} aria-current={props.active === 'timeline' ? 'page' : undefined}>{text.timeline}</a>
            <a href={`${prefix}/developers/`} aria-current={props.active === 'developers' ? 'page' : undefined}>{text.developers}</a>
            <a class="lang-switch" href={props.otherLanguagePath} hreflang={other === 'zh' ? 'zh-Hans' : 'en'} lang={other === 'zh' ? 'zh-Hans' : 'en'}>{text.switchTo}</a>
          </nav>
        </header>
        <main>{props.children}</main>
        <footer class="colophon">
          <p>{text.untrusted}</p>
          <p>
            <a href={`${prefix}/data/catalog.json`}>catalog.json</a> · <a href={`${prefix}/data/catalog.csv`}>catalog.csv</a> · <a href={`${prefix}/llms.txt`}>llms.txt</a> · <a href="/openapi.json">openapi.json</a>
          </p>
        </footer>
      </body>
    </html>
  );
}
