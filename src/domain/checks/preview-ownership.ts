import type { CheckVerdict } from '../submission.ts';
import type { SourceTable } from '../sources.ts';
import { describeLikeness } from '../previews.ts';
import type { PreviewMatch } from '../previews.ts';

/** The hosts a source's previews may come from: its own, its media hosts, and the archive's upload hosts. */
export function previewHosts(sources: SourceTable, source: string, uploadHosts: readonly string[]): string[] {
  const definition = sources.definition(source);
  return [...(definition?.hosts ?? []), ...(definition?.mediaHosts ?? []), ...uploadHosts];
}

function hostAllowed(url: URL, allowed: readonly string[]): boolean {
  const hostname = url.hostname.toLowerCase().replace(/^www\./, '');
  const host = url.host.toLowerCase();
  return allowed.some((entry) => {
    const wanted = entry.toLowerCase();
    return wanted.includes(':') && !wanted.startsWith('[') ? host === wanted : hostname === wanted.replace(/^www\./, '');
  });
}

/** The host part of preview ownership, decided before anything is fetched. */
export interface PreviewHosts {
  /** The media URLs on hosts that are neither the source's nor an upload host: never fetched unless a maintainer approves. */
  strangers: string[];
  allowed: string[];
  verdict: CheckVerdict;
}

/**
 * Preview ownership, its first part: every media URL is on the source's own host, one of its
 * media hosts, or a configured upload host. Needs no fetch, so it runs first; a preview on any
 * other host is never fetched, unless a maintainer approved the work (`approvedBy`).
 */
export function checkPreviewHosts(mediaUrls: readonly string[], source: string | undefined, uploadHosts: readonly string[], sources: SourceTable, approvedBy?: string): PreviewHosts {
  const allowed = source ? previewHosts(sources, source, uploadHosts) : [...uploadHosts];
  const strangers = mediaUrls.filter((raw) => {
    try {
      return !hostAllowed(new URL(raw), allowed);
    } catch {
      return true;
    }
  });
  if (strangers.length) {
    const whose = source ? "the source's own hosts" : 'the upload hosts (the source is unknown)';
    return { strangers, allowed, verdict: { name: 'preview-ownership', outcome: 'fail', detail: `Previews must come from ${whose} (${allowed.join(', ') || 'none configured'}); not from: ${strangers.join(', ')}. ${approvedBy === undefined ? 'They were not fetched.' : `They were fetched because ${approvedBy} approved the work.`}` } };
  }
  const label = source ? sources.label(source, 'en') : 'the archive';
  return { strangers, allowed, verdict: { name: 'preview-ownership', outcome: 'pass', detail: `Every preview comes from ${label}'s own hosts or the archive's upload host.` } };
}

/**
 * Preview ownership, whole: the host part, and no preview already belongs to a record of another
 * source. `matches` are the published previews found near the submitted ones; undefined when the
 * previews were not loaded, so the second part could not run (`notCheckedBecause` says why), or
 * has yet to (`pending`).
 */
export function checkPreviewOwnership(hosts: PreviewHosts, source: string | undefined, matches: readonly PreviewMatch[] | undefined, pending = false, notCheckedBecause = 'because the previews did not load'): CheckVerdict {
  if (hosts.verdict.outcome !== 'pass') return hosts.verdict;
  if (matches === undefined) {
    return {
      name: 'preview-ownership',
      outcome: pending ? 'pending' : 'skipped',
      detail: `The hosts are the source's own; ${pending ? 'whether a preview already belongs to another source is checked once the previews load' : `whether a preview already belongs to another source could not be checked, ${notCheckedBecause}`}.`,
    };
  }
  const foreign = matches.filter((match) => match.source !== source);
  if (foreign.length) {
    return {
      name: 'preview-ownership',
      outcome: 'fail',
      detail: `${foreign.map((match) => `${match.mediaUrl} is ${describeLikeness(match)} a preview of ${match.recordId} from source ${match.source}`).join('; ')}.`,
    };
  }
  return hosts.verdict;
}
