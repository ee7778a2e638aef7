import type { CheckVerdict } from '../../src/domain/submission.ts';
import { sourceDefinition } from '../../src/domain/sources.ts';

/** The hosts a source's previews may come from: its own, its media hosts, and the archive's upload hosts. */
export function previewHosts(source: string, uploadHosts: readonly string[]): string[] {
  const definition = sourceDefinition(source);
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

/** A published preview that another source's record owns. */
export interface ForeignPreview {
  mediaUrl: string;
  recordId: string;
  source: string;
}

/**
 * Preview ownership: every media URL is on the source's own host, one of its media hosts, or a
 * configured upload host; and no preview is already the preview of a record from another source.
 */
export function checkPreviewOwnership(mediaUrls: readonly string[], source: string | undefined, uploadHosts: readonly string[], foreign: readonly ForeignPreview[] = []): CheckVerdict {
  if (!source) return { name: 'preview-ownership', outcome: 'fail', detail: 'The source is unknown, so no preview host can belong to it.' };
  const allowed = previewHosts(source, uploadHosts);
  const strangers = mediaUrls.filter((raw) => {
    try {
      return !hostAllowed(new URL(raw), allowed);
    } catch {
      return true;
    }
  });
  if (strangers.length) {
    return {
      name: 'preview-ownership',
      outcome: 'fail',
      detail: `Previews must come from the source's own hosts (${allowed.join(', ') || 'none configured'}); not from: ${strangers.join(', ')}.`,
    };
  }
  if (foreign.length) {
    return {
      name: 'preview-ownership',
      outcome: 'fail',
      detail: foreign.map((entry) => `${entry.mediaUrl} is already the preview of ${entry.recordId} from source ${entry.source}`).join('; '),
    };
  }
  const label = sourceDefinition(source)?.label.en ?? source;
  return { name: 'preview-ownership', outcome: 'pass', detail: `Every preview comes from ${label}'s own hosts or the archive's upload host.` };
}
