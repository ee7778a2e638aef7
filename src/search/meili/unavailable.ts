/**
 * Which failures of a Meilisearch request mean "the search engine cannot answer now" (the
 * archive answers 503 with Retry-After) rather than a defect (500).
 */
import { MeilisearchApiError, MeilisearchRequestError, MeilisearchRequestTimeOutError } from 'meilisearch';
import { SearchIndexLost } from '../../domain/ports.ts';

/**
 * Statuses with which Meilisearch or a proxy in front of it says it cannot answer now: a gateway
 * whose upstream is down or slow (502, 504), or Meilisearch's own 503 (a full search queue).
 */
const UNAVAILABLE_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/**
 * Something other than Meilisearch answered at its address with a body that is not JSON, such as
 * a proxy's HTML error page. The official client reads every body as JSON and lets the parser's
 * SyntaxError escape, which would otherwise pass for a defect of the archive.
 */
export class MeiliForeignAnswerError extends Error {
  constructor(cause: SyntaxError) {
    super('the Meilisearch address answered with a body that is not JSON (a proxy error page?)', { cause });
    this.name = 'MeiliForeignAnswerError';
  }
}

/**
 * An index the archive searches is missing, or its settings lack what the archive's searches use
 * (a filter or sort attribute): Meilisearch answers such a search `index_not_found` or
 * `invalid_search_filter`. It happens when the index is deleted while the service runs (and a
 * later document write re-creates it with Meilisearch's default settings). The index sync
 * restores it (search-sync.ts), so this counts as unavailable (503 with Retry-After), not as a
 * defect. The message names the index and what is wrong, for the log.
 */
export class MeiliIndexLost extends SearchIndexLost {
  override name = 'MeiliIndexLost';

  constructor(
    readonly index: string,
    readonly fault: 'missing' | 'unusable',
    options?: ErrorOptions,
  ) {
    super(fault === 'missing' ? `the Meilisearch index ${index} does not exist` : `the Meilisearch index ${index} lacks the settings the archive's searches use (filterable or sortable attributes)`, options);
  }
}

/** Awaits a request made with the official client, naming a non-JSON answer for what it is. */
export async function fromMeili<T>(request: Promise<T>): Promise<T> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof SyntaxError) throw new MeiliForeignAnswerError(error);
    throw error;
  }
}

/**
 * Whether an error means Meilisearch could not be reached, did not answer in time, said it cannot
 * answer now, or has lost an index the service is restoring.
 */
export function isMeiliUnavailable(error: unknown): boolean {
  if (error instanceof MeilisearchRequestError || error instanceof MeilisearchRequestTimeOutError || error instanceof MeiliForeignAnswerError || error instanceof MeiliIndexLost) return true;
  return error instanceof MeilisearchApiError && UNAVAILABLE_STATUSES.has(error.response.status);
}
