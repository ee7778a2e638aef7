import type { Lang } from '../../domain/record.ts';
import { langPrefix, TEXT } from '../i18n.ts';
import { Layout } from '../layout.tsx';

/** The 429 page a browser gets when its address went over the requests per minute: how long to wait, and a link to try again. */
export function TooManyRequestsPage({ lang, otherLanguagePath, retryPath, retryAfterSeconds }: { lang: Lang; otherLanguagePath: string; retryPath: string; retryAfterSeconds: number }) {
  const text = TEXT[lang];
  return (
    <Layout lang={lang} title={text.tooManyTitle} otherLanguagePath={otherLanguagePath} indexable={false}>
      <article class="prose not-found">
        <h1>{text.tooManyTitle}</h1>
        <p>{text.tooManyText(retryAfterSeconds)}</p>
        <p>
          <a href={retryPath}>{text.tryAgain}</a> · <a href={`${langPrefix(lang)}/`}>{text.backHome}</a>
        </p>
      </article>
    </Layout>
  );
}
