import type { CheckVerdict, Submission } from '../submission.ts';
import { UNKNOWN_SOURCE, UNRESOLVED_SHORT_LINK_HOSTS } from '../sources.ts';
import type { SourceTable } from '../sources.ts';

/** What the source identity check learns about a submission's source. */
export interface SourceIdentity {
  verdict: CheckVerdict;
  canonicalUrl?: string;
  source?: string;
  /** The account the URL names (x.com/{handle}/status/…, github.com/{owner}/…), when it names one. */
  handle?: string;
}

const fail = (detail: string): SourceIdentity => ({ verdict: { name: 'source-identity', outcome: 'fail', detail } });

/** What the pass detail says of the account: the handle the URL names, or, where this source's URLs can name one and this URL does not, that the author was not compared. */
function accountNote(sources: SourceTable, source: string, handle: string | undefined): string {
  if (handle) return ` by @${handle}`;
  return sources.definition(source)?.handlePattern ? ' (the URL names no account, so the author was not compared with one)' : '';
}

/**
 * Source identity: the source URL is https, parses, is made canonical (tracking parameters
 * dropped, host aliases unified), its host belongs to a known source, and it is the address of one
 * work there (the source's work rule: a post, a repository, a video; not a home, search, profile
 * or sign-in page). Where the URL names an
 * account, an author written as a handle (@name) must be that account; where it names none (an
 * x.com share form, x.com/i/web/status/ID), the author is taken as written. The canonical URL is
 * given even when the host is unknown, so that a maintainer can approve the work as a "web" source.
 */
export function checkSourceIdentity(submission: Submission, sources: SourceTable): SourceIdentity {
  let parsed: URL;
  try {
    parsed = new URL(submission.sourceUrl);
  } catch {
    return fail(`sourceUrl does not parse as a URL: ${submission.sourceUrl}`);
  }
  if (parsed.username || parsed.password) return fail('sourceUrl must not carry credentials.');
  const canonical = sources.canonicalUrl(submission.sourceUrl);
  if (!canonical) return fail(`sourceUrl cannot be made canonical: ${submission.sourceUrl}`);
  const canonicalParsed = new URL(canonical);
  const source = sources.keyForHost(canonicalParsed.hostname);
  // Submissions queued before http addresses were refused or made https at acceptance: a maintainer may still approve them as https.
  if (parsed.protocol !== 'https:') return { ...fail(`sourceUrl must use https (got ${parsed.protocol.replace(':', '')}); submit the https address of the source.`), canonicalUrl: canonical, source };
  if (source === UNKNOWN_SOURCE) {
    const shortLink = UNRESOLVED_SHORT_LINK_HOSTS[canonicalParsed.hostname.replace(/^www\./, '')];
    if (shortLink) {
      return { ...fail(`The host ${canonicalParsed.hostname} gives ${shortLink.platform}'s short links, which name a work only through a request to it; the archive does not make one, so it is no source here. Submit the address the link leads to (${shortLink.workForm}).`), canonicalUrl: canonical, source: UNKNOWN_SOURCE };
    }
    const known = sources.definitions.filter((entry) => entry.hosts.length).map((entry) => entry.hosts[0]);
    return { ...fail(`The host ${canonicalParsed.hostname} is not a known source (known: ${known.join(', ')}). A maintainer can add it with npm run sources -- add.`), canonicalUrl: canonical, source: UNKNOWN_SOURCE };
  }
  if (!sources.namesWork(source, canonical)) {
    const form = sources.workForm(source);
    return { ...fail(`${canonical} names no single work on ${sources.label(source, 'en')} (a home page, search, profile or sign-in page does not)${form ? `; a work's address looks like ${form}` : ''}.`), canonicalUrl: canonical, source };
  }
  const handle = sources.handleIn(source, canonical);
  const author = submission.author.trim();
  if (handle && author.startsWith('@') && author.slice(1).toLowerCase() !== handle.toLowerCase()) {
    return { ...fail(`The author ${author} is written as a handle but the source URL belongs to @${handle}. Use @${handle} or the author's name.`), canonicalUrl: canonical, source, handle };
  }
  return {
    verdict: { name: 'source-identity', outcome: 'pass', detail: `${sources.label(source, 'en')} source ${canonical}${accountNote(sources, source, handle)}.` },
    canonicalUrl: canonical,
    source,
    ...(handle ? { handle } : {}),
  };
}
