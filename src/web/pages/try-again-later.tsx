import type { Lang } from '../../domain/record.ts';
import { langPrefix, TEXT } from '../i18n.ts';
import { Layout } from '../layout.tsx';

/** Why a page cannot be given now: its address went over the requests per minute (429), or a service behind the site cannot be reached (503). */
export type RetryReason = 'too-many-requests' | 'service-unavailable';

/** The page a browser gets for a 429 or a 503: why, how long to wait, and a link to try again. */
export function TryAgainLaterPage({ lang, otherLanguagePath, retryPath, retryAfterSeconds, reason }: { lang: Lang; otherLanguagePath: string; retryPath: string; retryAfterSeconds: number; reason: RetryReason }) {
  const text = TEXT[lang];
  const [title, explanation] = reason === 'too-many-requests' ? [text.tooManyTitle, text.tooManyText] : [text.unavailableTitle, text.unavailableText];
  return (
    <Layout lang={lang} title={title} otherLanguagePath={otherLanguagePath} indexable={false}>
      <article class="prose not-found">
        <h1>{title}</h1>
        <p>{explanation(retryAfterSeconds)}</p>
        <p>
          <a href={retryPath}>{text.tryAgain}</a> · <a href={`${langPrefix(lang)}/`}>{text.backHome}</a>
        </p>
      </article>
    </Layout>
  );
}
