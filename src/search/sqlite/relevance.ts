/**
 * Relevance within a tier of at most RANK_LIMIT hits. Records are short and fielded, so what
 * decides relevance is which field holds a query term and how rare the term is: each term adds
 * its inverse document frequency times the weight of the best field holding it — title 10,
 * model/author/prompt category 5, notes or prompt 1. Ties keep the tier's own order (date
 * descending, then id).
 *
 * FTS5's bm25() was the previous ranking; it finds every phrase's document count by scanning its
 * whole doclist on each query, filter tokens and excluded tiers included, which cost more than all
 * the rest of a search. Here the evidence is the per-term row sets (or FTS5 hits) the search
 * already has.
 */

export const TITLE_WEIGHT = 10;
export const METADATA_WEIGHT = 5;
export const TEXT_WEIGHT = 1;

/** Hits above which relevance ranking gives way to a cheaper order (title matches first, then newest). */
export const RANK_LIMIT = 500;

/** What is known of one query term: how rare it is, and in which fields a row holds it. */
export interface TermEvidence<Row> {
  idf: number;
  inTitle(row: Row): boolean;
  inMetadata(row: Row): boolean;
}

export function inverseDocumentFrequency(rows: number, documents: number): number {
  return Math.max(1e-6, Math.log((rows - documents + 0.5) / (documents + 0.5)));
}

/** The rows (every one of which holds every term in some field) with their scores, highest first; ties keep their given order. */
export function scoreRows<Row>(rows: readonly Row[], terms: readonly TermEvidence<Row>[]): { row: Row; score: number }[] {
  const scored = rows.map((row, position) => {
    let score = 0;
    for (const term of terms) score += term.idf * (term.inTitle(row) ? TITLE_WEIGHT : term.inMetadata(row) ? METADATA_WEIGHT : TEXT_WEIGHT);
    return { row, position, score };
  });
  scored.sort((a, b) => b.score - a.score || a.position - b.position);
  return scored.map(({ row, score }) => ({ row, score }));
}

/** The rows ordered by score, highest first; ties keep their given order. */
export function rankRows<Row>(rows: readonly Row[], terms: readonly TermEvidence<Row>[]): Row[] {
  return scoreRows(rows, terms).map((entry) => entry.row);
}
