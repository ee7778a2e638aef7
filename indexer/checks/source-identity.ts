import type { CheckVerdict, Submission } from '../../src/domain/submission.ts';
import { canonicalSourceUrl, sourceDefinition, sourceKeyForHost, SOURCES } from '../../src/domain/sources.ts';

/** What the source identity check learns about a submission's source. */
export interface SourceIdentity {
  verdict: CheckVerdict;
  canonicalUrl?: string;
  source?: string;
  /** The account the URL names (x.com/{handle}/status/…, github.com/{owner}/…), when it names one. */
  handle?: string;
}

const HANDLE_IN_PATH: Record<string, RegExp> = {
  x: /^\/([A-Za-z0-9_]{1,15})\/status\/\d+/,
  github: /^\/([A-Za-z0-9-]{1,39})(?:\/|$)/,
  weibo: /^\/([A-Za-z0-9_.-]+)\/[A-Za-z0-9]+/,
  codepen: /^\/([A-Za-z0-9_-]+)\/(?:pen|full|details)\//,
  huggingface: /^\/spaces\/([A-Za-z0-9_.-]+)\//,
};

const fail = (detail: string): SourceIdentity => ({ verdict: { name: 'source-identity', outcome: 'fail', detail } });

/**
 * Source identity: the source URL is https, parses, is made canonical (tracking parameters
 * dropped, host aliases unified) and its host belongs to a known source. Where the URL names an
 * account, an author written as a handle (@name) must be that account.
 */
export function checkSourceIdentity(submission: Submission): SourceIdentity {
  let parsed: URL;
  try {
    parsed = new URL(submission.sourceUrl);
  } catch {
    return fail(`sourceUrl does not parse as a URL: ${submission.sourceUrl}`);
  }
  if (parsed.protocol !== 'https:') return fail(`sourceUrl must use https (got ${parsed.protocol.replace(':', '')}); submit the https address of the source.`);
  if (parsed.username || parsed.password) return fail('sourceUrl must not carry credentials.');
  const canonical = canonicalSourceUrl(submission.sourceUrl);
  if (!canonical) return fail(`sourceUrl cannot be made canonical: ${submission.sourceUrl}`);
  const canonicalParsed = new URL(canonical);
  const source = sourceKeyForHost(canonicalParsed.hostname);
  if (source === 'web') {
    const known = SOURCES.filter((entry) => entry.hosts.length).map((entry) => entry.hosts[0]);
    return fail(`The host ${canonicalParsed.hostname} is not a known source (known: ${known.join(', ')}). Ask a maintainer to add it to the source table.`);
  }
  const handle = HANDLE_IN_PATH[source]?.exec(canonicalParsed.pathname)?.[1];
  const author = submission.author.trim();
  if (handle && author.startsWith('@') && author.slice(1).toLowerCase() !== handle.toLowerCase()) {
    return { ...fail(`The author ${author} is written as a handle but the source URL belongs to @${handle}. Use @${handle} or the author's name.`), canonicalUrl: canonical, source, handle };
  }
  const label = sourceDefinition(source)?.label.en ?? source;
  return {
    verdict: { name: 'source-identity', outcome: 'pass', detail: `${label} source ${canonical}${handle ? ` by @${handle}` : ''}.` },
    canonicalUrl: canonical,
    source,
    ...(handle ? { handle } : {}),
  };
}
