import type { RecordStore } from '../src/domain/ports.ts';
import type { CanonicalRecord } from '../src/domain/record.ts';
import { HashIndex } from './media/hash-index.ts';
import { AMBIGUOUS_MAX_DISTANCE } from './media/perceptual-hash.ts';
import type { ForeignPreview } from './checks/preview-ownership.ts';
import type { LoadedPreview } from './previews.ts';

interface Owner {
  recordId: string;
  source: string;
  submissionId?: string;
}

/** A published preview that resembles a submitted one. */
export interface PreviewMatch {
  mediaUrl: string;
  recordId: string;
  source: string;
  /** 0 for the same bytes; otherwise the Hamming distance of the perceptual hashes. */
  distance: number;
  exact: boolean;
}

/** What the published catalog says about a submission's previews. */
export interface PreviewLookups {
  matches: PreviewMatch[];
  /** Matches that belong to a record of another source than this one. */
  foreign(source: string): ForeignPreview[];
}

const MAX_MEDIA = 6;

/**
 * Every published preview's SHA-256 and perceptual hash, kept in memory for the duplicate and
 * ownership checks and kept current by following the store's change feed, so several publisher
 * processes see each other's work.
 */
export class PublishedPreviews {
  private readonly hashes = new HashIndex();
  private readonly bySha = new Map<string, Owner>();
  private readonly owners = new Map<string, Owner>();
  private readonly shaOf = new Map<string, string[]>();
  private changeNumber = 0;

  constructor(private readonly store: RecordStore) {}

  /** Reads the changes since the last refresh. */
  async refresh(): Promise<void> {
    for (;;) {
      const changes = await this.store.changesSince(this.changeNumber, 2000);
      if (changes.length === 0) return;
      this.remember(changes);
      this.changeNumber = changes.at(-1)?.seq ?? this.changeNumber;
    }
  }

  /** Adds (or replaces) the previews of records; a timeline record shares its gallery record's previews, so only gallery records count. */
  remember(records: readonly CanonicalRecord[]): void {
    for (const record of records) {
      if (record.kind !== 'gallery') continue;
      for (let index = 0; index < MAX_MEDIA; index += 1) this.hashes.remove(`${record.id}#${index}`);
      for (const sha of this.shaOf.get(record.id) ?? []) if (this.bySha.get(sha)?.recordId === record.id) this.bySha.delete(sha);
      const owner: Owner = { recordId: record.id, source: record.source, ...(record.submissionId ? { submissionId: record.submissionId } : {}) };
      this.owners.set(record.id, owner);
      this.shaOf.set(record.id, record.media.map((media) => media.sha256));
      record.media.forEach((media, index) => {
        if (!this.bySha.has(media.sha256)) this.bySha.set(media.sha256, owner);
        if (media.blockhash) this.hashes.add(`${record.id}#${index}`, media.blockhash);
      });
    }
  }

  /** Published previews equal or near to these, leaving out records of the same submission (a retry). */
  lookup(previews: readonly LoadedPreview[], submissionId: string): PreviewLookups {
    const matches: PreviewMatch[] = [];
    for (const preview of previews) {
      const same = this.bySha.get(preview.sha256);
      if (same && same.submissionId !== submissionId) {
        matches.push({ mediaUrl: preview.url, recordId: same.recordId, source: same.source, distance: 0, exact: true });
        continue;
      }
      for (const near of this.hashes.nearest(preview.blockhash, AMBIGUOUS_MAX_DISTANCE)) {
        const owner = this.owners.get(near.recordId.replace(/#\d+$/, ''));
        if (!owner || owner.submissionId === submissionId) continue;
        matches.push({ mediaUrl: preview.url, recordId: owner.recordId, source: owner.source, distance: near.distance, exact: false });
        break;
      }
    }
    return {
      matches,
      foreign: (source) => matches.filter((match) => match.source !== source).map((match) => ({ mediaUrl: match.mediaUrl, recordId: match.recordId, source: match.source })),
    };
  }
}
