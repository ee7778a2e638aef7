import type { Lang } from '../../domain/record.ts';
import { langPrefix, TEXT } from '../i18n.ts';
import { Layout } from '../layout.tsx';

/** What a withdrawn record's page says instead of the record: which work, why, and where it came from. */
export interface Withdrawal {
  /** The work's title in the page's language. */
  workTitle: string;
  /** The maintainer's reason, as written, in whatever language it was written. */
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
          <>
            <p>
              {text.withdrawnWork}
              <cite>{text.workTitle(withdrawn.workTitle)}</cite>
            </p>
            <p>
              {text.withdrawnReason}
              {/* The reason is free text in the language its writer chose; lang="" says it is unknown rather than claiming the page's. */}
              <span class="withdrawal-reason" lang="">{withdrawn.reason}</span>
            </p>
            <p>
              {text.withdrawnSource}
              <a href={withdrawn.sourceUrl} rel="nofollow noopener">{withdrawn.sourceUrl}</a>
            </p>
          </>
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
