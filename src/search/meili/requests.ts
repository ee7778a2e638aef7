/**
 * The searches one archive search sends to Meilisearch, sent together. A search of one query
 * text is an ordinary search; a search of several (the combinations of an OR query) is a
 * federated multi-search, which merges the hits of its queries, counts each record once in its
 * total and counts facets over the union. Ordinary searches go together in one multi-search
 * request; each federated one is a request of its own.
 */
import type { FederatedMultiSearchParams, Meilisearch, MultiSearchQuery, SearchResponse } from 'meilisearch';

/** One logical search: the same filter, sort and page over one or more query texts. */
export interface MeiliRequest {
  texts: readonly string[];
  filter?: string;
  sort?: string[];
  page: number;
  /** 0 asks only for the total and the facets. */
  hitsPerPage: number;
  facets?: readonly string[];
  /** Ask for each hit's ranking score (relevance cursors compare positions by it). */
  score?: boolean;
}

/** A hit as the adapter reads it. */
export interface MeiliHit {
  id: string;
  date: string;
  /** `_rankingScore`, when asked: the hit's ranking-rule buckets as one number (sort rules left out). */
  score?: number;
  /** 1 for a record of the model label listed first (see boostedWindow in search.ts), else 0. */
  part?: number;
}

export interface MeiliAnswer {
  /**
   * Exact number of matches: exhaustive `totalHits` (page mode), which stops only at maxTotalHits,
   * set above any index's size (settings.ts); a federated search counts the union of its queries.
   */
  total: number;
  hits: MeiliHit[];
  facets: Record<string, Record<string, number>>;
}

const RETRIEVE = ['id', 'date'];

function common(request: MeiliRequest, q: string, searchOn: readonly string[] | undefined): MultiSearchQuery & { indexUid: string } {
  return {
    indexUid: '',
    q,
    matchingStrategy: 'all',
    ...(searchOn ? { attributesToSearchOn: [...searchOn] } : {}),
    attributesToRetrieve: RETRIEVE,
    ...(request.facets?.length ? { facets: [...request.facets] } : {}),
    ...(request.filter ? { filter: request.filter } : {}),
    ...(request.sort ? { sort: request.sort } : {}),
    ...(request.score ? { showRankingScore: true } : {}),
  };
}

function answerOf(response: SearchResponse, facetDistribution: Record<string, Record<string, number>> | undefined): MeiliAnswer {
  return {
    total: response.totalHits ?? 0,
    hits: response.hits.map((hit) => ({ id: String(hit.id), date: String(hit.date), ...(typeof hit._rankingScore === 'number' ? { score: hit._rankingScore } : {}) })),
    facets: facetDistribution ?? {},
  };
}

/**
 * Sends the requests against one index and answers them in order; `searchOn` limits the fields
 * their texts are matched in (all searchable fields when undefined).
 */
export async function runRequests(client: Meilisearch, indexUid: string, requests: readonly MeiliRequest[], searchOn?: readonly string[]): Promise<MeiliAnswer[]> {
  const answers: MeiliAnswer[] = new Array(requests.length);
  const plain = requests.flatMap((request, position) => (request.texts.length === 1 ? [{ request, position }] : []));
  const pending: Promise<void>[] = [];
  if (plain.length > 0) {
    const queries = plain.map(({ request }) => ({ ...common(request, request.texts[0] ?? '', searchOn), indexUid, page: request.page, hitsPerPage: request.hitsPerPage }));
    pending.push(
      client.multiSearch({ queries }).then(({ results }) => {
        results.forEach((result, i) => {
          const position = plain[i]?.position ?? 0;
          answers[position] = answerOf(result, result.facetDistribution);
        });
      }),
    );
  }
  requests.forEach((request, position) => {
    if (request.texts.length === 1) return;
    const queries = request.texts.map((q) => {
      const { facets: _facets, ...query } = common(request, q, searchOn);
      return { ...query, indexUid };
    });
    // The client's types lag the server: federation takes page and hitsPerPage (exhaustive totals) too.
    const federation = { page: request.page, hitsPerPage: request.hitsPerPage, ...(request.facets?.length ? { facetsByIndex: { [indexUid]: [...request.facets] } } : {}) } as FederatedMultiSearchParams['federation'];
    pending.push(
      client.multiSearch({ federation, queries }).then((response) => {
        answers[position] = answerOf(response, response.facetsByIndex?.[indexUid]?.distribution);
      }),
    );
  });
  await Promise.all(pending);
  return answers;
}
