import type { Lang } from '../../domain/record.ts';
import { langPrefix, TEXT } from '../i18n.ts';
import { Layout } from '../layout.tsx';

/** What a withdrawn record's page says instead of the record: why, and where the work came from. */
export interface Withdrawal {
  reason: string;
  sourceUrl: string;
}

/** The 404 page, or the 410 page of a withdrawn record, with a way back and a search box. */
export function NotFoundPage({ lang, otherLanguagePath, withdrawn }: { lang: Lang; otherLanguagePath: string; withdrawn?: Withdrawal }) {
  const text = TEXT[lang];
  const title = withdrawn ? text.withdrawnTitle : text.notFoundTitle;
  return (
    <Layout lang={lang} title={title} otherLanguagePath={otherLanguagePath} indexable={false}>
      <article class="prose not-found">
        <h1>{title}</h1>
        {withdrawn ? (
          <p>
            {withdrawn.reason} {text.withdrawnSource}
            <a href={withdrawn.sourceUrl} rel="nofollow noopener">{withdrawn.sourceUrl}</a>
          </p>
        ) : (
          <p>{text.notFoundText}</p>
        )}
        <form class="search" method="get" action={`${langPrefix(lang)}/`} role="search">
          <input type="search" name="q" placeholder={text.searchPlaceholder} aria-label={text.search} />
          <button type="submit">{text.search}</button>
        </form>
        <p><a href={`${langPrefix(lang)}/`}>{text.backHome}</a></p>
      </article>
    </Layout>
  );
}
