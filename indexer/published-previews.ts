import type { RecordStore } from '../src/domain/ports.ts';
import type { CanonicalRecord } from '../src/domain/record.ts';
import type { ComparedPreview, PreviewCatalog, PreviewMatch } from '../src/domain/previews.ts';
import { HashIndex } from './media/hash-index.ts';
import { AMBIGUOUS_MAX_DISTANCE, DUPLICATE_MAX_DISTANCE } from './media/perceptual-hash.ts';
import { SIGNATURE_AMBIGUOUS_MAX_DISTANCE, SIGNATURE_DUPLICATE_MAX_DISTANCE, signatureDistance } from './media/colour-signature.ts';

interface Owner {
  recordId: string;
  source: string;
  submissionId?: string;
}

const MAX_MEDIA = 6;

/**
 * Every published preview's SHA-256, perceptual hash and (for low-detail previews) colour-aware
 * signature, kept in memory for the duplicate and ownership checks and kept current by following
 * the store's change feed, so several publisher processes see each other's work.
 *
 * Two previews compare by blockhash, unless both are low-detail: then their blockhashes say
 * little (a resized filled shape moves by up to 104 bits) and the colour-aware signatures decide.
 */
export class PublishedPreviews implements PreviewCatalog {
  private readonly hashes = new HashIndex();
  private readonly bySha = new Map<string, Owner>();
  private readonly owners = new Map<string, Owner>();
  private readonly shaOf = new Map<string, string[]>();
  /** Colour-aware signatures of low-detail published previews, by `${recordId}#${index}`. */
  private readonly signatures = new Map<string, string>();
  private seen = 0;

  constructor(private readonly store: RecordStore) {}

  get changeNumber(): number {
    return this.seen;
  }

  /**
   * Reads the changes since the last refresh, up to the catalog's change number read first: the
   * removals (withdrawn and moved records) forgotten, then the records written remembered, so a
   * record removed and written again within the span is remembered.
   */
  async refresh(): Promise<void> {
    const upTo = (await this.store.catalogState()).changeNumber;
    if (upTo <= this.seen) return;
    for (let after = this.seen; ; ) {
      const removals = await this.store.removalsSince(after, 2000, upTo);
      if (removals.length === 0) break;
      this.forget(removals.map((removal) => removal.id));
      after = removals.at(-1)?.seq ?? upTo;
    }
    for (let after = this.seen; ; ) {
      const changes = await this.store.changesSince(after, 2000, upTo);
      if (changes.length === 0) break;
      this.remember(changes);
      after = changes.at(-1)?.seq ?? upTo;
    }
    this.seen = upTo;
  }

  /** Drops the previews of records that are no longer published. */
  private forget(ids: readonly string[]): void {
    for (const id of ids) {
      for (let index = 0; index < MAX_MEDIA; index += 1) {
        this.hashes.remove(`${id}#${index}`);
        this.signatures.delete(`${id}#${index}`);
      }
      for (const sha of this.shaOf.get(id) ?? []) if (this.bySha.get(sha)?.recordId === id) this.bySha.delete(sha);
      this.shaOf.delete(id);
      this.owners.delete(id);
    }
  }

  /** Adds (or replaces) the previews of records; a timeline record shares its gallery record's previews, so only gallery records count. */
  remember(records: readonly CanonicalRecord[]): void {
    for (const record of records) {
      if (record.kind !== 'gallery') continue;
      for (let index = 0; index < MAX_MEDIA; index += 1) {
        this.hashes.remove(`${record.id}#${index}`);
        this.signatures.delete(`${record.id}#${index}`);
      }
      for (const sha of this.shaOf.get(record.id) ?? []) if (this.bySha.get(sha)?.recordId === record.id) this.bySha.delete(sha);
      const owner: Owner = { recordId: record.id, source: record.source, ...(record.submissionId ? { submissionId: record.submissionId } : {}) };
      this.owners.set(record.id, owner);
      this.shaOf.set(record.id, record.media.map((media) => media.sha256));
      record.media.forEach((media, index) => {
        if (!this.bySha.has(media.sha256)) this.bySha.set(media.sha256, owner);
        if (media.blockhash) this.hashes.add(`${record.id}#${index}`, media.blockhash);
        if (media.colourSignature) this.signatures.set(`${record.id}#${index}`, media.colourSignature);
      });
    }
  }

  /** lookup against these records' previews alone, by the same rules (the records a write read as written since the last refresh). */
  lookupAmong(records: readonly CanonicalRecord[], previews: readonly ComparedPreview[], submissionId: string): PreviewMatch[] {
    if (records.length === 0) return [];
    const among = new PublishedPreviews(this.store);
    among.remember(records);
    return among.lookup(previews, submissionId);
  }

  /** Published previews equal or near to these, leaving out records of the same submission (a retry); one match per preview, the nearest. */
  lookup(previews: readonly ComparedPreview[], submissionId: string): PreviewMatch[] {
    const matches: PreviewMatch[] = [];
    const ownerOf = (key: string): Owner | undefined => {
      const owner = this.owners.get(key.replace(/#\d+$/, ''));
      return owner && owner.submissionId !== submissionId ? owner : undefined;
    };
    for (const preview of previews) {
      const same = this.bySha.get(preview.sha256);
      if (same && same.submissionId !== submissionId) {
        matches.push({ mediaUrl: preview.url, recordId: same.recordId, source: same.source, likeness: 'identical', distance: 0, verdict: 'duplicate' });
        continue;
      }
      const found = preview.colourSignature ? this.nearestBySignature(preview.colourSignature, ownerOf) : undefined;
      if (found) {
        matches.push({ mediaUrl: preview.url, recordId: found.owner.recordId, source: found.owner.source, likeness: 'colour', distance: found.distance, verdict: found.distance <= SIGNATURE_DUPLICATE_MAX_DISTANCE ? 'duplicate' : 'ambiguous' });
        continue;
      }
      for (const near of this.hashes.nearest(preview.blockhash, AMBIGUOUS_MAX_DISTANCE)) {
        // A pair of low-detail previews is compared by signature only (above), never by its unreliable blockhash.
        if (preview.colourSignature && this.signatures.has(near.recordId)) continue;
        const owner = ownerOf(near.recordId);
        if (!owner) continue;
        matches.push({ mediaUrl: preview.url, recordId: owner.recordId, source: owner.source, likeness: 'perceptual', distance: near.distance, verdict: near.distance <= DUPLICATE_MAX_DISTANCE ? 'duplicate' : 'ambiguous' });
        break;
      }
    }
    return matches;
  }

  /** The nearest low-detail published preview within the ambiguity limit of a signature (a linear scan: low-detail previews are few). */
  private nearestBySignature(signature: string, ownerOf: (key: string) => Owner | undefined): { owner: Owner; distance: number } | undefined {
    let best: { owner: Owner; distance: number } | undefined;
    for (const [key, published] of this.signatures) {
      const distance = signatureDistance(signature, published);
      if (distance > SIGNATURE_AMBIGUOUS_MAX_DISTANCE || (best && distance >= best.distance)) continue;
      const owner = ownerOf(key);
      if (owner) best = { owner, distance: Math.round(distance * 10) / 10 };
    }
    return best;
  }
}
