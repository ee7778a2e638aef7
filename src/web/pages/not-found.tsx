import type { Lang } from '../../domain/record.ts';
import { langPrefix, TEXT } from '../i18n.ts';
import { Layout } from '../layout.tsx';

/** The 404 page, with a way back and a search box. */
export function NotFoundPage({ lang, otherLanguagePath }: { lang: Lang; otherLanguagePath: string }) {
  const text = TEXT[lang];
  return (
    <Layout lang={lang} title={text.notFoundTitle} otherLanguagePath={otherLanguagePath} indexable={false}>
      <article class="prose not-found">
        <h1>{text.notFoundTitle}</h1>
        <p>{text.notFoundText}</p>
        <form class="search" method="get" action={`${langPrefix(lang)}/`} role="search">
          <input type="search" name="q" placeholder={text.searchPlaceholder} aria-label={text.search} />
          <button type="submit">{text.search}</button>
        </form>
        <p><a href={`${langPrefix(lang)}/`}>{text.backHome}</a></p>
      </article>
    </Layout>
  );
}
